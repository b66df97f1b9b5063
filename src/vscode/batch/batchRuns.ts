// The batch run directories the Runs view shows (docs/reference/batch.md, "Runs view"): those
// started or opened in this workspace, and those under the chainlens.batch.runsFolder setting.
// A batch running in this window updates its run's counts from runBatch's records as they are
// written; other runs are read from disk when the view asks (refresh, a new manifest).
import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { summarizeRun, type RunSummary } from '../../core/batch';
import type { BatchManifest, BatchRecord } from '../../protocol/batch';
import { BatchRunDir } from '../../infra/batch/runDir';
import { dataRoot } from '../../infra/run/stateDir';

const KNOWN_KEY = 'chainlens.batch.runs';

/** A run directory as the view shows it: its summary, or why it cannot be read. */
export type RunEntry =
  | { readonly dir: string; readonly summary: RunSummary; readonly manifest: BatchManifest }
  | { readonly dir: string; readonly problem: string };

interface Live {
  readonly manifest: BatchManifest;
  readonly records: Map<string, BatchRecord>;
}

const recordKey = (r: BatchRecord) => `${r.chain_id}\u0000${r.source}\u0000${r.mode}\u0000${r.order}`;

export class BatchRuns implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string | undefined>();
  /** Fires with a run directory whose counts changed, or undefined when the list may have. */
  readonly onDidChange = this.changed.event;
  private readonly live = new Map<string, Live>();
  private readonly cache = new Map<string, RunEntry>();
  /** Summaries due: records that arrive together (a fast batch) are summed up once. */
  private readonly due = new Map<string, NodeJS.Timeout>();

  constructor(private readonly memento: vscode.Memento) {}

  /**
   * The folder the setting names, absolute (relative settings are taken from the first workspace
   * folder); unset, `batches` in ChainLens's data directory: the open folder is often a run's work
   * tree, where a batch's files would count as the solver's changes (docs/reference/batch.md).
   */
  runsFolder(): string | undefined {
    const setting = vscode.workspace.getConfiguration('chainlens.batch').get<string>('runsFolder')?.trim();
    if (!setting) return join(dataRoot(), 'batches');
    const folder = setting;
    if (isAbsolute(folder)) return folder;
    const ws = vscode.workspace.workspaceFolders?.[0];
    return ws ? join(ws.uri.fsPath, folder) : undefined;
  }

  /** A new run directory under the runs folder, named by the time it starts. */
  newRunDir(): string | undefined {
    const folder = this.runsFolder();
    if (!folder) return undefined;
    const stamp = new Date()
      .toISOString()
      .replace(/\.\d+Z$/, '')
      .replace(/[-:]/g, '')
      .replace('T', '-');
    let dir = join(folder, `batch-${stamp}`);
    for (let i = 2; existsSync(dir); i++) dir = join(folder, `batch-${stamp}-${i}`);
    return dir;
  }

  /** Every run directory the view lists, newest name first within the runs folder. */
  dirs(): string[] {
    const known = this.memento.get<string[]>(KNOWN_KEY, []);
    const folder = this.runsFolder();
    const found: string[] = [];
    if (folder && existsSync(folder))
      for (const e of readdirSync(folder, { withFileTypes: true }))
        if (e.isDirectory() && new BatchRunDir(join(folder, e.name)).exists) found.push(join(folder, e.name));
    found.sort().reverse();
    return [...new Set([...this.live.keys(), ...known.filter((d) => !found.includes(d)), ...found])];
  }

  /** Remembers a run directory (started or opened here) so the view lists it wherever it is. */
  async remember(dir: string): Promise<void> {
    const root = resolve(dir);
    const known = this.memento.get<string[]>(KNOWN_KEY, []);
    if (!known.includes(root)) await this.memento.update(KNOWN_KEY, [root, ...known].slice(0, 50));
    this.changed.fire(undefined);
  }

  entry(dir: string): RunEntry {
    const cached = this.cache.get(dir);
    if (cached) return cached;
    const entry = this.read(dir);
    this.cache.set(dir, entry);
    return entry;
  }

  isRunningHere(dir: string): boolean {
    return this.live.has(resolve(dir));
  }

  /** A batch of this window starts on `dir`: from now on its counts come from its records. */
  started(dir: string): void {
    const root = resolve(dir);
    const run = new BatchRunDir(root);
    const records = new Map(run.readRecords().map((r) => [recordKey(r), r]));
    this.live.set(root, { manifest: run.readManifest(), records });
    this.update(root);
  }

  recorded(dir: string, r: BatchRecord): void {
    const root = resolve(dir);
    const live = this.live.get(root);
    if (!live) return;
    live.records.set(recordKey(r), r);
    if (!this.due.has(root))
      this.due.set(
        root,
        setTimeout(() => {
          this.due.delete(root);
          if (this.live.has(root)) this.update(root);
        }, 200),
      );
  }

  ended(dir: string): void {
    const root = resolve(dir);
    clearTimeout(this.due.get(root));
    this.due.delete(root);
    this.live.delete(root);
    this.cache.delete(root);
    this.changed.fire(root);
  }

  /** Forgets every summary read from disk (Refresh, or a run directory appeared). */
  refresh(): void {
    for (const dir of this.cache.keys()) if (!this.live.has(dir)) this.cache.delete(dir);
    this.changed.fire(undefined);
  }

  private update(root: string): void {
    const live = this.live.get(root)!;
    this.cache.set(root, {
      dir: root,
      manifest: live.manifest,
      summary: summarizeRun(live.manifest, [...live.records.values()], true),
    });
    this.changed.fire(root);
  }

  private read(dir: string): RunEntry {
    const run = new BatchRunDir(dir);
    if (!existsSync(run.root)) return { dir, problem: 'the folder no longer exists' };
    try {
      const manifest = run.readManifest();
      return {
        dir,
        manifest,
        summary: summarizeRun(manifest, run.readRecords(), run.heldByLiveProcess, run.readEvidence()),
      };
    } catch (e) {
      return { dir, problem: (e as Error).message };
    }
  }

  dispose(): void {
    for (const t of this.due.values()) clearTimeout(t);
    this.changed.dispose();
  }
}
