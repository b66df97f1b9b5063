// Batches in VS Code: Run Batch… (the same use case as `chainlens batch`, with its progress in a
// cancellable notification through withProgress), the Runs view (every batch run directory with
// its state and counts; Resume, Retry Failed, Reveal) and the Results view of a run.
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import { openDialog } from '../util/pickerStart';
import type { RunMode } from '../../protocol/run';
import { stepId } from '../../core/batch';
import { refuseRunDirInWorkTree } from '../../app/batch/runDirPlace';
import { UserError } from '../../core/util/errors';
import { inheritedDifference } from '../../app/batch/inheritedDifference';
import { openOrCreateRunDir, planBatch } from '../../app/batch/planBatch';
import { defaultWorkers } from '../../app/batch/runBatch';
import { BatchRunDir } from '../../infra/batch/runDir';
import { isBatchRunArg, isBatchStepArg } from '../commandArgs';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';
import { requireTrust } from '../trust';
import { BatchRuns } from './batchRuns';
import { runBatchWithProgress } from './batchProgress';
import { openBatchStep, showBatchResults } from './resultsPanel';
import { RunsTreeProvider } from './runsTree';

/**
 * What Run Batch… takes from a script (or a test) instead of asking: the same as `chainlens
 * batch`'s options. Paths relative to the first workspace folder.
 */
interface RunBatchArgs {
  readonly dataset: readonly string[];
  readonly sources?: readonly string[];
  readonly repo: string;
  readonly runDir?: string;
  readonly modes?: readonly RunMode[];
  readonly workers?: number;
  /** `--repeats N`: each graded step N times on the same commit, to tell flaky tests. */
  readonly repeats?: number;
}

function isRunBatchArgs(x: unknown): x is RunBatchArgs {
  const a = x as RunBatchArgs;
  return (
    typeof x === 'object' &&
    x !== null &&
    Array.isArray(a.dataset) &&
    a.dataset.every((d) => typeof d === 'string') &&
    typeof a.repo === 'string'
  );
}
async function pickFolder(title: string): Promise<string | undefined> {
  const picked = await openDialog({
    title,
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
  });
  return picked?.[0]?.fsPath;
}

function workspaceRoot(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
}

/**
 * Prediction sources found in the workspace: SWE-bench predictions files and agent trajectories
 * (docs/reference/batch.md, "Sources"), offered beside gold.
 */
async function findSources(): Promise<string[]> {
  const found = await vscode.workspace.findFiles(
    // One level of braces: the file search's glob takes no nested groups.
    '**/{*predictions*.json,*predictions*.jsonl,*preds*.json,*preds*.jsonl,*.traj,*.traj.json}',
    '**/{node_modules,.git,dist,out,.cache,test-results,.chainlens-batches}/**',
    50,
  );
  return found.map((u) => u.fsPath).sort();
}

const TRAJECTORY = /\.traj(\.json)?$/;

type SourceItem = vscode.QuickPickItem & { spec?: string; browse?: 'files' | 'folder' };

async function pickSources(): Promise<string[] | undefined> {
  const root = workspaceRoot();
  const items: SourceItem[] = [
    { label: 'gold', description: "the chain's gold patches", spec: 'gold', picked: true },
    ...(await findSources()).map((f) => ({
      label: `$(file) ${relative(root, f) || f}`,
      description: TRAJECTORY.test(f) ? 'trajectory' : 'predictions',
      spec: f,
      // A trajectory covers one instance: checked only when the person means it.
      picked: !TRAJECTORY.test(f),
    })),
    { label: '$(folder-opened) Other predictions files…', browse: 'files' },
    { label: '$(folder-opened) Trajectory folder…', browse: 'folder' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Run Batch: prediction sources (each is evaluated in every mode)',
    placeHolder: 'Check every source to evaluate',
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!picked?.length) return undefined;
  const specs = picked.flatMap((p) => (p.spec ? [p.spec] : []));
  for (const p of picked.filter((i) => i.browse)) {
    const chosen = await openDialog({
      title: p.browse === 'files' ? 'Predictions files or trajectories' : 'Trajectory folder',
      canSelectFiles: p.browse === 'files',
      canSelectFolders: p.browse === 'folder',
      canSelectMany: p.browse === 'files',
    });
    if (!chosen?.length) return undefined;
    specs.push(...chosen.map((u) => u.fsPath));
  }
  return specs.length ? specs : undefined;
}

/** The repository: the open run's own work tree first (it holds the chain's base commit). */
async function pickRepository(services: ChainLensServices): Promise<string | undefined> {
  const root = workspaceRoot();
  type Item = vscode.QuickPickItem & { dir?: string };
  const items: Item[] = [];
  const runDir = services.run?.dir;
  if (runDir) items.push({ label: "$(repo) The open run's repository", description: runDir, dir: runDir });
  if (root !== runDir && existsSync(join(root, '.git')))
    items.push({ label: "$(repo) This workspace's repository", description: root, dir: root });
  items.push({ label: '$(folder) Other folder…' });
  const pick =
    items.length === 1
      ? items[0]
      : await vscode.window.showQuickPick(items, {
          title: 'Run Batch: repository holding the chains’ base commits',
          ignoreFocusOut: true,
        });
  if (!pick) return undefined;
  return pick.dir ?? pickFolder('Repository holding the chains’ base commits');
}

async function pickModes(): Promise<RunMode[] | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: 'Oracle',
        description: 'each step from base + the gold patches before it',
        mode: 'oracle' as const,
        picked: true,
      },
      {
        label: 'Seq',
        description: 'each step on the previous step of the same source',
        mode: 'seq' as const,
        picked: true,
      },
    ],
    { title: 'Run Batch: modes', canPickMany: true, ignoreFocusOut: true },
  );
  return picked?.length ? picked.map((p) => p.mode) : undefined;
}

async function pickWorkers(): Promise<number | undefined> {
  const value = await vscode.window.showInputBox({
    title: 'Run Batch: workers',
    prompt: 'How many steps are evaluated at a time, each in its own container',
    value: String(defaultWorkers()),
    ignoreFocusOut: true,
    validateInput: (v) => (/^[1-9]\d{0,2}$/.test(v.trim()) ? undefined : 'A whole number from 1'),
  });
  return value === undefined ? undefined : Number(value.trim());
}

/** The batch Run Batch… starts when it is asked interactively; undefined when the person stops. */
async function askForBatch(runs: BatchRuns, services: ChainLensServices): Promise<RunBatchArgs | undefined> {
  const dataset = await openDialog({
    title: 'Dataset files (ChainSWE JSONL/JSON, SWE-bench instances, Parquet)',
    canSelectMany: true,
    filters: { Datasets: ['jsonl', 'json', 'parquet'] },
  });
  if (!dataset?.length) return undefined;
  const sources = await pickSources();
  if (!sources) return undefined;
  const repo = await pickRepository(services);
  if (!repo) return undefined;
  const modes = await pickModes();
  if (!modes) return undefined;
  const workers = await pickWorkers();
  if (workers === undefined) return undefined;
  const fresh = runs.newRunDir();
  const where = await vscode.window.showQuickPick(
    [
      ...(fresh ? [{ label: `New run directory ${fresh}`, dir: fresh }] : []),
      { label: 'Choose a folder… (a new or empty one, or a batch to resume)', dir: undefined },
    ],
    { title: 'Run directory' },
  );
  if (!where) return undefined;
  const runDir = where.dir ?? (await pickFolder('Run directory'));
  if (!runDir) return undefined;
  return { dataset: dataset.map((u) => u.fsPath), sources, repo, runDir, modes, workers };
}

export function registerBatch(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const { output, disclosure } = services;
  const runs = new BatchRuns(context.workspaceState);
  const tree = new RunsTreeProvider(runs);
  const view = vscode.window.createTreeView('chainlens.batchRuns', { treeDataProvider: tree });

  /** A run directory from a Runs view item, a path, or (from the palette) a pick of the listed runs. */
  const runDirOf = async (arg: unknown, title: string): Promise<string | undefined> => {
    if (isBatchRunArg(arg)) return arg.dir;
    if (typeof arg === 'string') return resolve(workspaceRoot(), arg);
    if (arg instanceof vscode.Uri) return arg.fsPath;
    const listed = runs.dirs();
    if (listed.length === 0) return pickFolder(title);
    const pick = await vscode.window.showQuickPick(
      [
        ...listed.map((dir) => ({ label: relative(workspaceRoot(), dir) || dir, dir })),
        { label: 'Other folder…', dir: '' },
      ],
      { title },
    );
    if (!pick) return undefined;
    return pick.dir || pickFolder(title);
  };

  // A run directory appearing under the runs folder (a batch started by the CLI, say) is listed.
  const watchFolder = () => {
    const folder = runs.runsFolder();
    if (!folder) return undefined;
    const w = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(folder), '*/manifest.json'),
    );
    w.onDidCreate(() => runs.refresh());
    w.onDidDelete(() => runs.refresh());
    return w;
  };
  let watcher = watchFolder();

  context.subscriptions.push(
    runs,
    tree,
    view,
    { dispose: () => watcher?.dispose() },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('chainlens.batch.runsFolder')) return;
      watcher?.dispose();
      watcher = watchFolder();
      runs.refresh();
    }),
    vscode.commands.registerCommand('chainlens.batch.refreshRuns', () => runs.refresh()),
    vscode.commands.registerCommand(
      'chainlens.batch.openResults',
      guarded(output, 'Could not open the batch results', async (arg?: unknown) => {
        const dir = await runDirOf(arg, 'Batch run directory');
        if (!dir) return;
        showBatchResults(dir, output, context.extensionUri);
        await runs.remember(dir);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.batch.openStep',
      guarded(output, 'Could not open the batch step', async (arg?: unknown) => {
        if (!isBatchStepArg(arg)) return;
        const dir = new BatchRunDir(arg.dir);
        const record = dir
          .readRecords()
          .find((r) => stepId({ chainId: r.chain_id, source: r.source, mode: r.mode, order: r.order }) === arg.id);
        if (!record) throw new UserError(`${dir.root} holds no record of ${arg.id} yet`, 'state');
        await openBatchStep(dir, record, output);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.batch.openInheritedDifference',
      guarded(output, 'Could not open the inherited difference', async (arg?: unknown) => {
        if (!isBatchStepArg(arg)) return;
        // The Oracle start state is made of gold patches: withheld like every gold document.
        disclosure.require('goldDocuments', 'Open Inherited Difference');
        const record = new BatchRunDir(arg.dir)
          .readRecords()
          .find((r) => stepId({ chainId: r.chain_id, source: r.source, mode: r.mode, order: r.order }) === arg.id);
        if (!record) throw new UserError(`${arg.dir} holds no record of ${arg.id} yet`, 'state');
        const found = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'ChainLens: replaying both start states…' },
          () => inheritedDifference(arg.dir, record.chain_id, record.source, record.order),
        );
        const doc = await vscode.workspace.openTextDocument({
          language: 'diff',
          content:
            `# Inherited difference of ${found.chainId} step ${found.order} (position ${found.position}), source ${found.source}:\n` +
            `# from its Oracle start state (base + gold 1..${found.position - 1}) to its Seq start state.\n` +
            (found.diff || '# (none: both start states are the same)\n'),
        });
        await vscode.window.showTextDocument(doc, { preview: true });
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.batch.revealRunDir',
      guarded(output, 'Could not reveal the run directory', async (arg?: unknown) => {
        const dir = await runDirOf(arg, 'Batch run directory');
        if (!dir) return;
        if (!existsSync(dir)) throw new UserError(`${dir} no longer exists`, 'input');
        const inWorkspace = (vscode.workspace.workspaceFolders ?? []).some((f) => {
          const rel = relative(f.uri.fsPath, dir);
          return !rel.startsWith('..') && !isAbsolute(rel);
        });
        // Inside the workspace the Explorer shows it (also in a remote or browser window, where
        // the operating system's file manager is not the user's); outside, the OS does.
        await vscode.commands.executeCommand(inWorkspace ? 'revealInExplorer' : 'revealFileInOS', vscode.Uri.file(dir));
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.batch.resume',
      guarded(output, 'The batch failed', async (arg?: unknown) => {
        requireTrust('Running a batch');
        const dir = await runDirOf(arg, 'Batch run directory to resume');
        if (!dir) return;
        await runBatchWithProgress(runs, dir, output);
        showBatchResults(dir, output, context.extensionUri);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.batch.retryFailed',
      guarded(output, 'The batch failed', async (arg?: unknown) => {
        requireTrust('Running a batch');
        const dir = await runDirOf(arg, 'Batch run directory whose infra failures to run again');
        if (!dir) return;
        await runBatchWithProgress(runs, dir, output, { retryFailed: true });
        showBatchResults(dir, output, context.extensionUri);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.batch.run',
      guarded(output, 'The batch failed', async (arg?: unknown) => {
        requireTrust('Running a batch');
        const asked = isRunBatchArgs(arg) ? arg : await askForBatch(runs, services);
        if (!asked) return;
        const cwd = workspaceRoot();
        const runDir = asked.runDir ? resolve(cwd, asked.runDir) : runs.newRunDir();
        if (!runDir) throw new UserError('open a folder, or give the run directory', 'usage');
        refuseRunDirInWorkTree(runDir);
        // Everything is read and checked before the run directory is made or touched.
        const planned = await planBatch({
          cwd,
          runDir,
          dataset: asked.dataset,
          sources: asked.sources ?? ['gold'],
          modes: [...(asked.modes ?? (['oracle', 'seq'] as const))],
          repos: [asked.repo],
          repeats: asked.repeats,
        });
        const { resumed } = openOrCreateRunDir(planned, runDir);
        if (resumed) output.info(`resuming the batch in ${runDir}`);
        await runBatchWithProgress(runs, runDir, output, { workers: asked.workers });
        showBatchResults(runDir, output, context.extensionUri);
      }),
    ),
  );
}
