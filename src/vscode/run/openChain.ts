// Open Chain…: pick a chain file (one found in the workspace, or browse), where its repository
// comes from (this workspace's repository, a local path or a URL), the mode and who authors each
// step; then check it out and start the run. Every choice can also be passed as an argument
// (agents, tests, keybindings), which skips its prompt.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { openDialog } from '../util/pickerStart';
import { parseAuthorsSpec, resolveAuthors, type AuthorKind } from '../../core/run/plan';
import { UserError } from '../../core/util/errors';
import { pickConditionAuthors } from '../codethread/conditionPick';
import type { Chain } from '../../protocol/chain';
import type { RunMode } from '../../protocol/run';
import { recordedPatches } from '../../app/run/inputs';
import { readRecordedAuthors, type RecordedAuthors } from '../../app/run/recordedAuthors';
import { Git } from '../../infra/git/git';
import { parseRepoSource, type RepoSource } from '../../infra/git/mirror';
import { readChain, type ChainFileProblems } from '../chainFile/readChain';
import { showNotes } from '../errors';
import { modeLabel, type ChainLensServices } from '../services';
import { requireTrust } from '../trust';
import type { ActiveRun } from './activeRun';

export interface OpenChainOptions {
  /** continuous_id of a chain in a ChainSWE dataset. */
  chainId?: string;
  /** 'workspace' (the open folder's repository), a local repository path, or a git URL. */
  repository?: string;
  /** Where the work tree goes when the repository is not the workspace's (default: asked). */
  workTree?: string;
  mode?: RunMode;
  /** As the CLI's --authors: "human,human,gold", "1=recorded" (AH). */
  authors?: string;
  /** SWE-bench predictions for 'recorded' authors. */
  predictions?: string;
  startStep?: number;
  /** Skip the confirmation before uncommitted work is stashed (default: ask). */
  confirmStash?: boolean;
}

const CANCELLED = new vscode.CancellationError();

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** Chain files of the workspace: JSON/JSONL whose beginning names bug_fixes (ChainSWE) or instance_id (SWE-bench). */
async function findChainFiles(): Promise<vscode.Uri[]> {
  const candidates = await vscode.workspace.findFiles(
    '**/*.{json,jsonl}',
    '**/{node_modules,.git,dist,out,.cache,test-results}/**',
    400,
  );
  const found: vscode.Uri[] = [];
  for (const uri of candidates) {
    try {
      if (statSync(uri.fsPath).size > 200 * 1024 * 1024) continue;
      const fd = readFileSync(uri.fsPath, { encoding: 'utf8', flag: 'r' }).slice(0, 64 * 1024);
      if (/"bug_fixes"\s*:/.test(fd) || (/"instance_id"\s*:/.test(fd) && /"FAIL_TO_PASS"\s*:/.test(fd)))
        found.push(uri);
    } catch {
      // unreadable: not offered
    }
  }
  return found.sort((a, b) => a.fsPath.localeCompare(b.fsPath));
}

async function pickChainFile(): Promise<string> {
  const files = await findChainFiles();
  type Item = vscode.QuickPickItem & { file?: string };
  const items: Item[] = files.map((uri) => ({
    label: `$(file) ${basename(uri.fsPath)}`,
    description: vscode.workspace.asRelativePath(dirname(uri.fsPath)),
    file: uri.fsPath,
  }));
  items.push({
    label: '$(folder-opened) Browse…',
    description: 'a ChainSWE chain (.json/.jsonl) or SWE-bench instances',
  });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Open Chain (1/4): chain file',
    placeHolder: files.length ? 'Chain files found in the workspace' : 'No chain file in the workspace: browse for one',
    ignoreFocusOut: true,
  });
  if (!pick) throw CANCELLED;
  if (pick.file) return pick.file;
  const chosen = await openDialog({
    canSelectMany: false,
    openLabel: 'Open Chain',
    filters: { 'Chain files': ['json', 'jsonl'], 'All files': ['*'] },
    title: 'Open Chain',
  });
  if (!chosen?.[0]) throw CANCELLED;
  return chosen[0].fsPath;
}

async function holdsCommit(dir: string, commit: string): Promise<boolean> {
  try {
    return (await new Git(dir).resolveCommit(commit)) !== null;
  } catch {
    return false;
  }
}

interface RepoChoice {
  source: RepoSource;
  /** The work tree is the source itself (run in place). */
  inPlace: boolean;
}

async function pickRepository(chain: Chain, given: string | undefined): Promise<RepoChoice> {
  const folder = workspaceFolder();
  if (given === 'workspace') {
    if (!folder) throw new UserError('No folder is open, so there is no workspace repository to use.', 'usage');
    return { source: { kind: 'path', path: folder }, inPlace: true };
  }
  if (given) {
    const source = parseRepoSource(given, folder ?? process.cwd());
    return { source, inPlace: source.kind === 'path' && source.path === folder };
  }
  type Item = vscode.QuickPickItem & { id: 'workspace' | 'path' | 'url' };
  const items: Item[] = [];
  if (folder && existsSync(join(folder, '.git'))) {
    const has = await holdsCommit(folder, chain.baseCommit);
    items.push({
      id: 'workspace',
      label: "$(repo) This workspace's repository",
      description: folder,
      detail: has
        ? `Has base commit ${chain.baseCommit.slice(0, 12)}; the run happens here, on a chainlens/… branch.`
        : `$(warning) Base commit ${chain.baseCommit.slice(0, 12)} is not in it: fetch it first, or pick another source.`,
    });
  }
  items.push({
    id: 'path',
    label: '$(folder) Local repository…',
    detail: 'A clone of the repository elsewhere on this machine; the work tree is cloned from it.',
  });
  items.push({
    id: 'url',
    label: '$(cloud-download) Clone from URL…',
    detail: `Cloned once into the mirror cache (later runs open offline), e.g. https://github.com/${chain.repo}.git`,
  });
  const pick = await vscode.window.showQuickPick(items, {
    title: `Open Chain (2/4): repository of ${chain.repo}`,
    placeHolder: 'Where does the repository come from?',
    ignoreFocusOut: true,
  });
  if (!pick) throw CANCELLED;
  if (pick.id === 'workspace') return { source: { kind: 'path', path: folder! }, inPlace: true };
  if (pick.id === 'path') {
    const chosen = await openDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      openLabel: 'Use Repository',
      title: `Local clone of ${chain.repo}`,
    });
    if (!chosen?.[0]) throw CANCELLED;
    return { source: parseRepoSource(chosen[0].fsPath, folder ?? process.cwd()), inPlace: false };
  }
  const url = await vscode.window.showInputBox({
    title: `Clone ${chain.repo}`,
    value: `https://github.com/${chain.repo}.git`,
    prompt: 'A git URL (https, ssh or file); cloned once into the mirror cache',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'Enter a URL'),
  });
  if (!url) throw CANCELLED;
  return { source: { kind: 'url', url: url.trim() }, inPlace: false };
}

/** A new, empty folder for the work tree, next to the workspace by default. */
async function pickWorkTree(chain: Chain): Promise<string> {
  const folder = workspaceFolder();
  const name = chain.repo.split('/').pop() ?? 'chain';
  const suggestion = join(
    folder ? dirname(folder) : process.cwd(),
    `${name}-${chain.id.replace(/[^\w.-]+/g, '_').slice(0, 40)}`,
  );
  const value = await vscode.window.showInputBox({
    title: 'Work tree folder',
    prompt: 'A new or empty folder; the repository is checked out there',
    value: suggestion,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const path = v.trim();
      if (!path) return 'Enter a folder';
      if (
        existsSync(path) &&
        (!statSync(path).isDirectory() || (readdirSync(path).length > 0 && !existsSync(join(path, '.git'))))
      )
        return `${path} is not empty and not a git repository`;
      return undefined;
    },
  });
  if (!value) throw CANCELLED;
  return value.trim();
}

async function pickMode(given: RunMode | undefined): Promise<RunMode> {
  if (given) return given;
  const preferred =
    vscode.workspace.getConfiguration('chainlens').get<RunMode>('defaultMode') === 'oracle' ? 'oracle' : 'seq';
  const items: (vscode.QuickPickItem & { mode: RunMode })[] = [
    {
      mode: 'seq',
      label: 'Seq',
      detail:
        'Each step starts where your submitted work on the previous step ended: errors carry over, as in real maintenance.',
    },
    {
      mode: 'oracle',
      label: 'Oracle',
      detail:
        'Each step starts from the base plus the gold patches of the steps before it: every step is judged on its own.',
    },
  ];
  if (preferred === 'oracle') items.reverse();
  const pick = await vscode.window.showQuickPick(items, { title: 'Open Chain (3/4): mode', ignoreFocusOut: true });
  if (!pick) throw CANCELLED;
  return pick.mode;
}

async function pickAuthors(chain: Chain, given: string | undefined): Promise<AuthorKind[]> {
  const n = chain.steps.length;
  if (given) return parseAuthorsSpec(given, n);
  if (chain.codethread) {
    const spec = await pickConditionAuthors();
    if (!spec) throw CANCELLED;
    return parseAuthorsSpec(spec, n);
  }
  type Item = vscode.QuickPickItem & { spec?: string };
  const items: Item[] = [
    {
      label: 'You solve every step',
      description: n === 2 ? 'HH' : undefined,
      detail: 'Each step is yours: edit, run its tests, submit.',
      spec: Array(n).fill('human').join(','),
    },
  ];
  if (n >= 2)
    items.push({
      label: "An agent's patch for step 1, then you",
      description: 'AH',
      detail: "Step 1 is an agent's recorded patch (SWE-bench predictions file); you continue from it.",
      spec: '1=recorded',
    });
  items.push({
    label: "Replay an agent's patches for every step",
    description: n === 2 ? 'AA' : undefined,
    detail: 'Every step is applied from a predictions file and graded; nothing to edit.',
    spec: Array(n).fill('recorded').join(','),
  });
  if (n >= 2)
    items.push({
      label: 'Gold for step 1, then you',
      detail: 'Step 1 is the gold patch; you start at step 2.',
      spec: '1=gold',
    });
  items.push({
    label: 'Custom…',
    detail: 'One author per step (human, gold, recorded), e.g. "recorded,human,gold" or "2=gold".',
  });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Open Chain (4/4): who authors each step',
    ignoreFocusOut: true,
  });
  if (!pick) throw CANCELLED;
  let spec = pick.spec;
  if (!spec) {
    spec = await vscode.window.showInputBox({
      title: 'Authors',
      prompt: `${n} steps: one author each (human, gold, recorded), or k=author for some`,
      value: Array(n).fill('human').join(','),
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          parseAuthorsSpec(v, n);
          return undefined;
        } catch (e) {
          return (e as Error).message.replace(/^./, (c) => c.toUpperCase());
        }
      },
    });
    if (!spec) throw CANCELLED;
  }
  return parseAuthorsSpec(spec, n);
}

async function pickPredictions(chain: Chain, given: string | undefined): Promise<RecordedAuthors> {
  let path = given;
  if (!path) {
    // Two searches: VS Code's glob has no nested braces. Predictions files, then agent trajectories.
    const exclude = '**/{node_modules,.git}/**';
    const searches = await Promise.all([
      vscode.workspace.findFiles('**/*pred*.{json,jsonl}', exclude, 50),
      vscode.workspace.findFiles('**/*.{traj,traj.json}', exclude, 50),
    ]);
    const found = searches.flat().map((u) => u.fsPath);
    type Item = vscode.QuickPickItem & { file?: string };
    const items: Item[] = [
      ...found.map((f) => ({
        label: `$(file) ${basename(f)}`,
        description: vscode.workspace.asRelativePath(dirname(f)),
        file: f,
      })),
      { label: '$(folder-opened) Browse…' },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: "Agent's recorded patches (SWE-bench predictions, or a trajectory)",
      ignoreFocusOut: true,
    });
    if (!pick) throw CANCELLED;
    path = pick.file;
    if (!path) {
      const chosen = await openDialog({
        canSelectMany: false,
        filters: { 'Predictions or trajectory': ['json', 'jsonl', 'traj'] },
        title: 'Predictions or trajectory file',
      });
      if (!chosen?.[0]) throw CANCELLED;
      path = chosen[0].fsPath;
    }
  }
  // SWE-bench predictions or an agent trajectory (its final submission authors the step).
  return readRecordedAuthors(path, chain);
}

/** The whole Open Chain flow; resolves once the run is open (or rejects with CancellationError when abandoned). */
export async function openChain(
  services: ChainLensServices,
  runs: ActiveRun,
  problems: ChainFileProblems,
  fileArg: vscode.Uri | undefined,
  options: OpenChainOptions = {},
): Promise<void> {
  requireTrust('Opening a chain');
  const file = fileArg?.fsPath ?? (await pickChainFile());
  const read = await readChain(file, problems, options.chainId);
  if (!read) return;
  const { chain } = read;
  services.output.info(`chain ${chain.id}: ${chain.steps.length} steps of ${chain.repo} (from ${file})`);

  const repo = await pickRepository(chain, options.repository);
  const workTree = repo.inPlace
    ? (repo.source as { path: string }).path
    : (options.workTree ?? (await pickWorkTree(chain)));
  const mode = await pickMode(options.mode);
  const kinds = await pickAuthors(chain, options.authors);
  const preds = kinds.includes('recorded') ? await pickPredictions(chain, options.predictions) : null;
  const authors = resolveAuthors(chain, kinds, preds?.predictions ?? null, preds?.path ?? null);

  if (
    options.confirmStash !== false &&
    existsSync(join(workTree, '.git')) &&
    (await new Git(workTree).isDirty().catch(() => false))
  ) {
    const go = await vscode.window.showWarningMessage(
      `${workTree} has uncommitted changes.`,
      {
        modal: true,
        detail:
          'They are stashed before the run starts (git stash; the ChainLens log names the entry and how to restore it).',
      },
      'Stash and Open',
    );
    if (!go) throw CANCELLED;
  }

  const { snapshot, notes } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `ChainLens: opening ${chain.id}` },
    (progress) =>
      runs.start(
        {
          chain,
          chainFile: file,
          source: repo.source,
          workTree,
          mode,
          authors,
          recorded: recordedPatches(preds?.predictions),
          startStep: options.startStep,
        },
        (line) => progress.report({ message: line }),
      ),
  );
  showNotes(services.output, notes);
  const { state } = snapshot;
  const where =
    state.currentStep === null
      ? 'every step was applied automatically'
      : `step ${state.currentStep} of ${chain.steps.length}`;
  services.output.info(
    `run ${state.runId} of ${chain.id}: ${modeLabel(mode)} mode, ${where}, work tree ${snapshot.dir}`,
  );
  void vscode.commands.executeCommand('chainlens.chain.focus');
  if (state.currentStep !== null)
    void vscode.commands.executeCommand('chainlens.showProblemStatement', { kind: 'step', order: state.currentStep });
  const inWindow = (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.fsPath === snapshot.dir);
  if (!inWindow) {
    void vscode.window
      .showInformationMessage(
        `${chain.id} is checked out in ${snapshot.dir}. Open that folder to edit the step there.`,
        'Open Folder',
        'Add to Workspace',
      )
      .then((choice) => {
        if (choice === 'Open Folder')
          void vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(snapshot.dir));
        else if (choice === 'Add to Workspace')
          vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, {
            uri: vscode.Uri.file(snapshot.dir),
          });
      });
  }
}
