// The run this window works on: opened from the work tree on activation, started by Open Chain,
// advanced by Submit, replaced by Switch Mode. Engine operations are serialised (one at a time,
// like the CLI's journal expects) and every change fires onDidChange once.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChainRunEngine, RunInUseError } from '../../core/run/engine';
import { UserError } from '../../core/util/errors';
import type { RunMode } from '../../protocol/run';
import { Git } from '../../infra/git/git';
import { RunStore } from '../../infra/run/store';
import { openWorkspace, type Workspace } from '../../infra/run/workspace';
import { hasLegacyState, pointerPath } from '../../infra/run/stateDir';
import { startRun, type RunPlan } from '../../app/run/startRun';
import { submitStep, switchMode } from '../../app/run/stepActions';
import type { ActiveRunService, ChainRunSnapshot } from '../services';
import { requireTrust } from '../trust';

/** A planned run (src/app/run) as Open Chain picks it. */
export interface StartRunRequest extends Omit<RunPlan, 'chainPath' | 'dir' | 'quietStatus' | 'operation'> {
  chainFile: string;
  /** Where the work tree is (reused when it holds the repository, else cloned there). */
  workTree: string;
}

export interface EngineOutcome {
  snapshot: ChainRunSnapshot;
  /** Things to tell the person (stash locations, patches that did not apply). */
  notes: string[];
}

export class ActiveRun implements ActiveRunService, vscode.Disposable {
  private snapshot: ChainRunSnapshot | undefined;
  private readonly changed = new vscode.EventEmitter<ChainRunSnapshot | undefined>();
  readonly onDidChange = this.changed.event;
  private queue: Promise<unknown> = Promise.resolve();
  private depth = 0;
  private watcher: vscode.FileSystemWatcher | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;

  constructor(private readonly output: vscode.LogOutputChannel) {}

  get current(): ChainRunSnapshot | undefined {
    return this.snapshot;
  }

  get busy(): boolean {
    return this.depth > 0;
  }

  private readonly listeners = new Set<(line: string) => void>();
  /** Engine progress lines: to the log, and to whoever shows progress for the running operation. */
  private readonly log = (line: string): void => {
    this.output.info(line);
    for (const listener of this.listeners) listener(line);
  };

  /** Runs engine operations one at a time; `chainlens.busy` disables the commands meanwhile. */
  exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      if (this.depth++ === 0) void vscode.commands.executeCommand('setContext', 'chainlens.busy', true);
      try {
        return await operation();
      } finally {
        if (--this.depth === 0) void vscode.commands.executeCommand('setContext', 'chainlens.busy', false);
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Opens the run of the work tree at `dir` if it has one; undefined when it has none. */
  async resume(dir: string): Promise<{ notes: string[] } | undefined> {
    return this.exclusive(async () => {
      if (!vscode.workspace.isTrusted) return this.resumeReadOnly(dir);
      let ws: Workspace;
      try {
        ws = await openWorkspace(dir, this.log);
      } catch {
        return undefined; // not a git work tree: nothing to resume
      }
      if (!ws.store.currentRunId()) return undefined;
      const { state, chain, notes } = await ws.engine.open();
      this.set({ dir: ws.dir, state, chain, workspace: ws });
      this.output.info(
        `opened run ${state.runId} of chain ${chain.id} in ${ws.dir} (${state.mode}, step ${state.currentStep ?? 'complete'})`,
      );
      return { notes };
    });
  }

  /**
   * Restricted Mode: the run's state files are read directly, without running git in the folder
   * (a repository's hooks and config can run code). Nothing is recovered or changed.
   */
  private resumeReadOnly(dir: string): { notes: string[] } | undefined {
    const gitDir = join(dir, '.git');
    if (!existsSync(gitDir) || !statSync(gitDir).isDirectory()) return undefined;
    const store = new RunStore(gitDir, dir, { readOnly: true });
    const runId = store.currentRunId();
    const state = runId ? store.loadRun(runId) : null;
    const chain = runId ? store.loadChain(runId) : null;
    if (!state || !chain) return undefined;
    const git = new Git(dir);
    const engine = new ChainRunEngine(git, store, { now: () => new Date() }, this.log);
    this.set({ dir, state, chain, workspace: { dir, git, store, engine } });
    this.output.info(
      `opened run ${state.runId} of chain ${chain.id} read-only (Restricted Mode: no git, no containers until the folder is trusted)`,
    );
    return { notes: [] };
  }

  async start(request: StartRunRequest, onProgress?: (line: string) => void): Promise<EngineOutcome> {
    requireTrust('Opening a chain');
    return this.exclusive(async () => {
      if (onProgress) this.listeners.add(onProgress);
      try {
        const { source, workTree, chain, chainFile, ...args } = request;
        const started = await startRun(
          { ...args, chain, chainPath: chainFile, source, dir: workTree, operation: 'open chain' },
          this.log,
        );
        const { workspace: ws, state } = started;
        const notes = started.notes;
        return { snapshot: this.set({ dir: ws.dir, state, chain: started.chain, workspace: ws }), notes };
      } finally {
        if (onProgress) this.listeners.delete(onProgress);
      }
    });
  }

  async submit(): Promise<EngineOutcome & { submitted: number }> {
    requireTrust('Submitting a step');
    return this.exclusive(async () => {
      const run = this.require();
      const { state, notes, submitted } = await submitStep(run);
      return { snapshot: this.set({ ...run, state }), notes, submitted };
    });
  }

  /** A new run of the same chain, authors and recorded patches, in `mode` (the CLI's re-checkout). */
  async switchMode(mode: RunMode): Promise<EngineOutcome> {
    requireTrust('Switching the mode');
    return this.exclusive(async () => {
      const run = this.require();
      const { state, notes } = await switchMode(run, mode);
      return { snapshot: this.set({ ...run, state }), notes };
    });
  }

  async reload(): Promise<void> {
    const run = this.snapshot;
    if (!run) return;
    if (!vscode.workspace.isTrusted) {
      await this.exclusive(async () => this.resumeReadOnly(run.dir));
      return;
    }
    await this.exclusive(async () => {
      const { state, chain, notes } = await run.workspace.engine.open();
      for (const note of notes) this.output.warn(note);
      if (state.runId === run.state.runId && state.updatedAt === run.state.updatedAt) return;
      this.set({ ...run, state, chain });
    });
  }

  require(): ChainRunSnapshot {
    if (!this.snapshot) throw new UserError('No chain is open: run "ChainLens: Open Chain…" first.', 'state');
    return this.snapshot;
  }

  private set(snapshot: ChainRunSnapshot): ChainRunSnapshot {
    const previousRoot = this.snapshot?.workspace.store.root;
    this.snapshot = snapshot;
    if (previousRoot !== snapshot.workspace.store.root) this.watch(snapshot.workspace.store.root);
    this.updateContext();
    this.changed.fire(snapshot);
    return snapshot;
  }

  private updateContext(): void {
    const run = this.snapshot;
    const step = run?.state.steps.find((s) => s.order === run.state.currentStep);
    void vscode.commands.executeCommand('setContext', 'chainlens.hasRun', !!run);
    void vscode.commands.executeCommand(
      'setContext',
      'chainlens.stepIsHuman',
      step?.author.kind === 'human' || step?.author.kind === 'agent-live',
    );
    void vscode.commands.executeCommand('setContext', 'chainlens.mode', run?.state.mode);
  }

  /**
   * The CLI (or another window) may submit or switch the same run: follow its state files.
   * Our own writes come back here too; reload() sees an unchanged updatedAt and stays quiet.
   */
  private watch(storeRoot: string): void {
    this.watcher?.dispose();
    if (!existsSync(storeRoot)) return;
    this.watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(storeRoot), '{current,runs/*.json}'),
    );
    const schedule = (): void => {
      clearTimeout(this.reloadTimer);
      this.reloadTimer = setTimeout(() => {
        if (this.busy) return schedule();
        this.reload().catch((e) => {
          // The agent tools (or the CLI) are in the middle of changing it: read it once they are done.
          if (e instanceof RunInUseError) return schedule();
          this.output.warn(`could not re-read the run after it changed on disk: ${(e as Error).message}`);
        });
      }, 300);
    };
    this.watcher.onDidChange(schedule);
    this.watcher.onDidCreate(schedule);
  }

  dispose(): void {
    clearTimeout(this.reloadTimer);
    this.watcher?.dispose();
    this.changed.dispose();
  }
}

/**
 * Whether a folder is a ChainLens work tree (what the workspaceContains activation events look
 * for): its pointer to the state folder, or state of the old in-repository layout.
 */
export function hasChainLensRun(folder: string): boolean {
  const gitDir = join(folder, '.git');
  return existsSync(pointerPath(gitDir)) || hasLegacyState(gitDir);
}
