// One trajectory file in a webview panel: the step list and the selected step's detail, with the
// editor following the selection. The file is read off the extension host's thread (a worker for
// big files) with progress and an early preview, then watched so a running agent's steps appear
// as they are written. The panel is torn down when hidden (no retained context) and the webview
// restores its selection, filter and search from its saved state after `ready`.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { readBlobs } from '../../infra/git/blobReader';
import { reconstructWorkspace, type WorkspaceTimeline } from '../../core/trajectories';
import { loadTrajectoryFile, watchTrajectoryFile, type TrajectoryWatcher } from '../../infra/trajectories';
import type { FileTouch, Trajectory, TrajectoryFile } from '../../protocol/trajectory';
import {
  FromTrajectoryViewSchema,
  type FromTrajectoryView,
  type StepDetail,
  type ToTrajectoryView,
  type TrajectoryHeader,
  type TrajectoryViewAction,
} from '../../protocol/trajectoryView';
import { errorMessage, showError } from '../errors';
import { shownSummary } from '../evaluation/messages';
import type { ChainLensServices } from '../services';
import { hostWebview, type HostedView } from '../webviewHost';
import type { TouchedLines } from './editorSync';
import { toWorkspacePath } from './pathMapping';
import { snapshotText } from './snapshotText';
import { problemText } from '../../core/trajectories/present/problemText';
import { nothingRead, predictionsNote } from '../../core/trajectories/present/fileNotes';
import { UserError } from '../../core/util/errors';
import { searchSteps, stepRows } from '../../core/trajectories/present/stepRows';
import { rangesText } from '../../core/trajectories/present/text';
import type { TrajectoryDocuments } from './trajectoryDocuments';

export const TRAJECTORY_VIEW_TYPE = 'chainlens.trajectory';

export interface TrajectoryShared {
  readonly services: ChainLensServices;
  readonly documents: TrajectoryDocuments;
  readonly touched: TouchedLines;
  /** dist/trajectory-worker.js of the installed extension. */
  readonly workerScript: string;
}

let panelCounter = 0;

export class TrajectoryPanel implements vscode.Disposable {
  readonly id = `t${++panelCounter}-${Date.now().toString(36)}`;
  private readonly host: HostedView<ToTrajectoryView>;
  private loaded: TrajectoryFile | undefined;
  private preview: Trajectory | undefined;
  private chosen = 0;
  private timeline: Promise<{ timeline: WorkspaceTimeline; bases: Map<string, string | null | undefined> }> | undefined;
  private watcher: TrajectoryWatcher | undefined;
  private readonly abort = new AbortController();
  private readonly disposables: vscode.Disposable[] = [];
  private lastProgress = 0;
  private failure: string | undefined;
  private disposed = false;
  private readonly onDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDisposeEmitter.event;

  constructor(
    private readonly shared: TrajectoryShared,
    readonly file: string,
    readonly panel: vscode.WebviewPanel,
    chosen = 0,
  ) {
    this.chosen = chosen;
    const { services } = shared;
    panel.title = basename(file);
    panel.iconPath = {
      light: vscode.Uri.joinPath(services.context.extensionUri, 'media', 'trajectory-light.svg'),
      dark: vscode.Uri.joinPath(services.context.extensionUri, 'media', 'trajectory-dark.svg'),
    };
    this.host = hostWebview<FromTrajectoryView, ToTrajectoryView>(panel, {
      extensionUri: services.context.extensionUri,
      view: 'trajectory',
      title: basename(file),
      stylesheet: 'trajectory.css',
      schema: FromTrajectoryViewSchema,
      output: services.output,
      onReady: () => {
        if (this.failure) this.post({ type: 'failed', message: this.failure });
        else this.postTrajectory('initial');
      },
      onMessage: (message) => this.receive(message),
    });
    this.disposables.push(
      services.onDidChangeRun(() => {
        this.timeline = undefined;
        this.postTrajectory('reloaded');
      }),
      services.evaluation.onDidEvaluate(() => this.postTrajectory('reloaded')),
      panel.onDidDispose(() => this.dispose()),
    );
    void this.load();
  }

  static create(shared: TrajectoryShared, file: string, chosen = 0): TrajectoryPanel {
    const panel = vscode.window.createWebviewPanel(
      TRAJECTORY_VIEW_TYPE,
      basename(file),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { retainContextWhenHidden: false, enableFindWidget: false },
    );
    return new TrajectoryPanel(shared, file, panel, chosen);
  }

  reveal(): void {
    this.panel.reveal();
  }

  /** Shows another trajectory of the file (the folder list picked one instance of an output.jsonl). */
  choose(trajectory: number): void {
    this.chosen = trajectory;
    this.timeline = undefined;
    this.postTrajectory('reloaded');
  }

  private async load(): Promise<void> {
    const started = Date.now();
    const { output } = this.shared.services;
    try {
      const file = await loadTrajectoryFile(this.file, {
        signal: this.abort.signal,
        workerScript: existsSync(this.shared.workerScript) ? this.shared.workerScript : undefined,
        onProgress: (p) => {
          if (p.preview && !this.preview) {
            this.preview = p.preview;
            output.info(
              `trajectory ${basename(this.file)}: first ${p.preview.steps.length} steps shown after ${Date.now() - started} ms`,
            );
            this.postTrajectory('initial');
          }
          const now = Date.now();
          if (now - this.lastProgress > 150) {
            this.lastProgress = now;
            this.post({ type: 'loading', file: this.file, bytesRead: p.bytesRead, totalBytes: p.totalBytes });
          }
        },
      });
      if (this.abort.signal.aborted) return;
      // As `chainlens trajectory` does: a file nothing could be read from fails at once, with its problems.
      const nothing = nothingRead(file, this.file);
      if (nothing) {
        const problems = file.problems.map(problemText);
        throw new UserError(problems.length ? `${nothing}: ${problems.join('; ')}` : nothing, 'input');
      }
      this.loaded = file;
      const steps = file.trajectories.reduce((n, t) => n + t.steps.length, 0);
      output.info(
        `trajectory ${basename(this.file)}: ${file.trajectories.length} trajectories, ${steps} steps, ${file.problems.length} problems, read in ${Date.now() - started} ms`,
      );
      this.postTrajectory('initial');
      this.watch();
    } catch (e) {
      if ((e as Error).name === 'AbortError') return;
      this.failure = errorMessage(e);
      this.post({ type: 'failed', message: this.failure });
      showError(output, e, `Could not open the trajectory ${this.file}`);
    }
  }

  /** Live reload: the watcher reads the file again (JSON) or only its new lines (JSONL). */
  private watch(): void {
    let first = true;
    this.watcher = watchTrajectoryFile(
      this.file,
      (change) => {
        // its first read repeats what load() just read: only later changes are news
        if (first && change.reason === 'initial') {
          first = false;
          if (sameShape(change.file, this.loaded)) return;
        }
        this.loaded = change.file;
        this.timeline = undefined;
        this.postTrajectory(change.reason === 'initial' ? 'reloaded' : change.reason);
      },
      { onError: (e) => this.shared.services.output.warn(`watching ${this.file}: ${e.message}`) },
    );
  }

  private trajectory(): Trajectory | undefined {
    return this.loaded?.trajectories[this.chosen] ?? this.loaded?.trajectories[0] ?? this.preview;
  }

  private workspaceFolder(): string | undefined {
    return (
      this.shared.services.run?.dir ??
      vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath
    );
  }

  /** Workspace-relative path of a file the agent touched, or null when it is not in this workspace's repository. */
  private mapPath(path: string, t: Trajectory): string | null {
    const folder = this.workspaceFolder();
    return toWorkspacePath(path, t.workspaceRoot, folder ? (rel) => existsSync(join(folder, rel)) : undefined);
  }

  /** The workspace-relative path when the file is in this workspace now (so it can be opened). */
  private existingPath(path: string, t: Trajectory): string | null {
    const rel = this.mapPath(path, t);
    const folder = this.workspaceFolder();
    return rel && folder && existsSync(join(folder, rel)) ? rel : null;
  }

  private chainStep(t: Trajectory): { order: number; index: number } | undefined {
    const run = this.shared.services.run;
    if (!run || !t.instanceId) return undefined;
    const index = run.chain.steps.findIndex((s) => s.instanceId === t.instanceId);
    return index < 0 ? undefined : { order: run.state.steps[index].order, index };
  }

  private header(t: Trajectory): TrajectoryHeader {
    const chain = this.chainStep(t);
    const run = this.shared.services.run;
    const evaluation = chain ? this.shared.services.evaluation.latest(chain.order) : undefined;
    const chainStep = chain && run ? run.chain.steps[chain.index] : undefined;
    return {
      file: this.file,
      title: t.instanceId ?? basename(this.file),
      format: `${t.source.format} ${t.source.version}`,
      instanceId: t.instanceId,
      model: t.model,
      exitStatus: t.exitStatus,
      workspaceRoot: t.workspaceRoot,
      choices: (this.loaded?.trajectories ?? [t]).map((x, k) => x.instanceId ?? `trajectory ${k + 1}`),
      chosen: this.loaded ? Math.min(this.chosen, this.loaded.trajectories.length - 1) : 0,
      hasSubmission: !!t.submission,
      chainStep:
        chain && chainStep
          ? {
              order: chain.order,
              hasGold: !!chainStep.goldPatch,
              hasTestPatch: !!chainStep.testPatch,
              evaluation: (evaluation && shownSummary(this.shared.services.disclosure.current, evaluation)) ?? null,
            }
          : null,
    };
  }

  private postTrajectory(reason: 'initial' | 'appended' | 'reloaded'): void {
    const t = this.trajectory();
    if (!t || !this.host.ready) return;
    this.panel.title = `${t.instanceId ?? basename(this.file)} (trajectory)`;
    const problems = [...(this.loaded?.problems ?? []), ...t.problems].map((p) => ({
      severity: p.severity,
      text: problemText(p),
    }));
    const note = predictionsNote(t, basename(this.file));
    if (note) problems.unshift({ severity: 'warning', text: note });
    if (!this.loaded)
      problems.unshift({
        severity: 'warning',
        text: `${this.file}: still reading; the first ${t.steps.length} steps are shown`,
      });
    this.post({
      type: 'trajectory',
      header: this.header(t),
      rows: stepRows(t, (p) => this.mapPath(p, t) ?? p),
      problems,
      reason,
    });
  }

  private post(message: ToTrajectoryView): void {
    this.host.post(message);
  }

  private async receive(message: Exclude<FromTrajectoryView, { type: 'ready' }>): Promise<void> {
    const { output } = this.shared.services;
    try {
      switch (message.type) {
        case 'choose':
          this.choose(message.trajectory);
          return;
        case 'search': {
          const t = this.trajectory();
          this.post({ type: 'searchResult', query: message.query, matches: t ? searchSteps(t, message.query) : [] });
          return;
        }
        case 'select':
          await this.select(message.index, message.follow);
          return;
        case 'action':
          await this.act(message.action, message.index, message.path);
          return;
      }
    } catch (e) {
      showError(output, e, 'Trajectory viewer');
    }
  }

  private async select(index: number, follow: boolean): Promise<void> {
    const t = this.trajectory();
    const step = t?.steps[index];
    if (!t || !step) return;
    const patch = step.patchSoFar;
    const detail: StepDetail = {
      index,
      kind: step.actionKind,
      kindReason: step.actionKindReason,
      thought: step.thought,
      action: step.action,
      observation: step.observation,
      exitCode: step.exitCode,
      executionTimeSec: step.executionTimeSec,
      timestamp: step.timestamp,
      files: step.filesTouched.map((f) => ({
        path: f.path,
        workspacePath: this.existingPath(f.path, t),
        access: f.access,
        ranges: f.ranges,
      })),
      patchNote: patch ? `${patch.origin}${patch.complete ? '' : ` (incomplete: ${patch.gaps.join('; ')})`}` : null,
      origin: [step.origin.jsonPath, step.origin.line !== undefined ? `line ${step.origin.line}` : '']
        .filter(Boolean)
        .join(', '),
    };
    this.post({ type: 'detail', step: detail });
    if (!follow) return;
    const touch = followedFile(step.filesTouched);
    if (!touch) {
      this.shared.touched.clear();
      return;
    }
    const rel = this.mapPath(touch.path, t);
    const folder = this.workspaceFolder();
    if (rel && folder && existsSync(join(folder, rel))) {
      await this.shared.touched.show(
        vscode.Uri.file(join(folder, rel)),
        touch.ranges,
        this.editorColumn(),
        `Step ${index}: ${touch.access}${rangesText(touch.ranges)}`,
      );
    } else {
      vscode.window.setStatusBarMessage(
        `$(info) ${touch.path} is not in this workspace; "Workspace at this step" shows it as the trajectory reveals it`,
        5000,
      );
    }
  }

  /** The column beside the viewer, so following a step never covers it. */
  private editorColumn(): vscode.ViewColumn {
    return this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
  }

  private async act(action: TrajectoryViewAction, index: number, path: string | undefined): Promise<void> {
    const t = this.trajectory();
    if (!t) return;
    const step = t.steps[index];
    const target = path ?? (step ? followedFile(step.filesTouched)?.path : undefined);
    const { documents } = this.shared;
    const name = t.instanceId ?? 'trajectory';
    switch (action) {
      case 'openFile': {
        if (!target || !step) return;
        const touch = step.filesTouched.find((f) => f.path === target);
        const rel = this.mapPath(target, t);
        const folder = this.workspaceFolder();
        if (!rel || !folder || !existsSync(join(folder, rel))) throw new Error(`${target} is not in this workspace.`);
        await this.shared.touched.show(
          vscode.Uri.file(join(folder, rel)),
          touch?.ranges ?? [],
          this.editorColumn(),
          `Step ${index}`,
        );
        return;
      }
      case 'workspaceAtStep': {
        if (!target) throw new Error(`Step ${index} touched no file.`);
        const { timeline } = await this.workspace(t);
        const shown = snapshotText(timeline.fileAt(target, index));
        const uri = documents.put(
          `${this.id}/step-${index}/${this.mapPath(target, t) ?? target.replace(/^\/+/, '')}`,
          shown.text,
        );
        this.noteUnknown(timeline, target, index, shown.unknown.length);
        await this.shared.touched.show(
          uri,
          step?.filesTouched.find((f) => f.path === target)?.ranges ?? [],
          this.editorColumn(),
          `${name}: step ${index}`,
        );
        return;
      }
      case 'diffWithPrevious': {
        if (!target) throw new Error(`Step ${index} touched no file.`);
        const { timeline, bases } = await this.workspace(t);
        const rel = this.mapPath(target, t) ?? target.replace(/^\/+/, '');
        const before =
          index > 0 ? snapshotText(timeline.fileAt(target, index - 1)) : { text: bases.get(target) ?? '', unknown: [] };
        const after = snapshotText(timeline.fileAt(target, index));
        const left = documents.put(`${this.id}/step-${index - 1}/${rel}`, before.text);
        const right = documents.put(`${this.id}/step-${index}/${rel}`, after.text);
        // lines the agent had not seen yet are blank: a diff shows them as added when a later step reveals them
        const caveat =
          before.unknown.length || after.unknown.length ? ' (blank lines: not yet seen in the trajectory)' : '';
        await vscode.commands.executeCommand(
          'vscode.diff',
          left,
          right,
          `${basename(rel)}: step ${index - 1} ↔ step ${index}${caveat}`,
          { preview: true, viewColumn: this.editorColumn(), preserveFocus: true },
        );
        return;
      }
      case 'submission': {
        if (!t.submission) throw new Error('This trajectory has no submission.');
        await vscode.window.showTextDocument(
          documents.put(`${this.id}/patches/${name} submission.diff`, t.submission),
          { viewColumn: this.editorColumn(), preview: true },
        );
        return;
      }
      case 'submissionVsGold':
      case 'testPatch': {
        const chain = this.chainStep(t);
        const run = this.shared.services.run;
        if (!chain || !run) throw new Error(`The open chain has no step for ${t.instanceId ?? 'this trajectory'}.`);
        const chainStep = run.chain.steps[chain.index];
        if (action === 'testPatch') {
          await vscode.window.showTextDocument(
            documents.put(`${this.id}/patches/step ${chain.order} test patch.diff`, chainStep.testPatch),
            { viewColumn: this.editorColumn(), preview: true },
          );
          return;
        }
        const gold = documents.put(`${this.id}/patches/step ${chain.order} gold.diff`, chainStep.goldPatch);
        const submission = documents.put(`${this.id}/patches/${name} submission.diff`, t.submission ?? '');
        await vscode.commands.executeCommand(
          'vscode.diff',
          submission,
          gold,
          `${name}: submission ↔ gold (step ${chain.order})`,
          { preview: true, viewColumn: this.editorColumn() },
        );
        return;
      }
    }
  }

  private noteUnknown(timeline: WorkspaceTimeline, path: string, index: number, unknownRuns: number): void {
    if (!unknownRuns) return;
    const why = timeline.fileAt(path, index).unknownBecause;
    vscode.window.setStatusBarMessage(
      `$(info) ${basename(path)} at step ${index}: ${unknownRuns} stretch(es) of lines are empty because ${why ?? 'the trajectory never showed them'}`,
      8000,
    );
  }

  /**
   * The workspace timeline with base files from git at the chain step's start commit (when the
   * open run has this instance), else from the work tree. readBaseFile is synchronous, so the
   * bases of every file the steps touch are read first.
   */
  private workspace(
    t: Trajectory,
  ): Promise<{ timeline: WorkspaceTimeline; bases: Map<string, string | null | undefined> }> {
    this.timeline ??= (async () => {
      const files = reconstructWorkspace(t).files;
      const bases = new Map<string, string | null | undefined>();
      const run = this.shared.services.run;
      const chain = this.chainStep(t);
      const start = chain && run ? run.state.steps[chain.index].start : null;
      const folder = this.workspaceFolder();
      const mapped = files.flatMap((path) => {
        const rel = this.mapPath(path, t);
        return rel ? [{ path, rel }] : [];
      });
      if (start && run) {
        // Every file at the step's start in one `git cat-file --batch`; null: not there (known absent).
        const blobs = await readBlobs(
          run.dir,
          start,
          mapped.map((m) => m.rel),
        ).catch(() => new Map<string, string | undefined>());
        for (const { path, rel } of mapped) bases.set(path, blobs.get(rel) ?? null);
      } else if (folder) {
        await Promise.all(
          mapped.map(async ({ path, rel }) =>
            bases.set(path, await readFile(join(folder, rel), 'utf8').catch(() => undefined)),
          ),
        );
      }
      return { timeline: reconstructWorkspace(t, { readBaseFile: (p) => bases.get(p) }), bases };
    })();
    return this.timeline;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.panel.dispose();
    this.abort.abort();
    this.watcher?.close();
    this.shared.documents.forgetPanel(this.id);
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.onDisposeEmitter.fire();
    this.onDisposeEmitter.dispose();
  }
}

/** The file the editor follows for a step: what it edited or created, else what it viewed. */
function followedFile(touches: readonly FileTouch[]): FileTouch | undefined {
  return touches.find((f) => f.access === 'edit' || f.access === 'create') ?? touches.find((f) => f.access === 'view');
}

function sameShape(a: TrajectoryFile, b: TrajectoryFile | undefined): boolean {
  return (
    !!b &&
    a.trajectories.length === b.trajectories.length &&
    a.trajectories.every((t, k) => t.steps.length === b.trajectories[k].steps.length) &&
    a.problems.length === b.problems.length
  );
}
