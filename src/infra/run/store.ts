import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Chain } from '../../protocol/chain';
import { describeIssues } from '../../core/formats/issues';
import type { RunState } from '../../protocol/run';
import { journalProblem, type Journal } from '../../core/run/journal';
import type { RunStorePort } from '../../core/run/ports';
import { UserError } from '../../core/util/errors';
import { ensurePrivateDir, writeFileAtomic } from '../files';
import { FileLock, lockHolder } from './runLock';
import { passedCheck, rememberCheck } from './checkMemo';
import { stateSchemas, type StateContents } from './stateSchemas';
import {
  claimStateDir,
  ensurePointer,
  hasLegacyState,
  migrateLegacyState,
  pointerDir,
  pointerPath,
  readPointer,
  stateDirOf,
} from './stateDir';

/**
 * A work tree's ChainLens state, in its folder of the per-user data directory (stateDir.ts), never
 * in the work tree or its .git (a solver working there must not find the answers):
 *   current                  id of the run the work tree belongs to
 *   runs/<id>.json           RunState
 *   runs/<id>.chain.json     the normalised chain as it was when the run started (gold, tests, F2P)
 *   runs/<id>.recorded.json  recorded (agent) patches by instance id
 *   runs/<id>/evals/, runs/<id>/agent/, runs/<id>.evals.json, runs/<id>.labels.jsonl
 *   journal.json             an in-flight multi-write change (see core/run/journal.ts)
 *   lock                     the one writer now (runLock.ts)
 * Every write is atomic (temp file + rename). The folder is made on the first write, so opening a
 * repository that has no run changes nothing.
 */
export class RunStore implements RunStorePort {
  private bound: string | null;
  private pointedAtMissing = false;
  private lockFile: FileLock | null = null;

  constructor(
    readonly gitDir: string,
    /** Top of the work tree (for messages and to recognise a moved or copied tree). */
    readonly workTree: string,
    private readonly options: {
      /** Restricted Mode: read what is there, write nothing (not even a migration). */
      readOnly?: boolean;
      log?: (line: string) => void;
    } = {},
  ) {
    this.bound = null;
    if (!options.readOnly && hasLegacyState(gitDir)) {
      this.bound = migrateLegacyState(gitDir, workTree);
      options.log?.(`moved this work tree's ChainLens state out of ${pointerDir(gitDir)} into ${this.bound}`);
      return;
    }
    const id = readPointer(gitDir);
    if (!id) return;
    this.bound = stateDirOf(id);
    // A folder that is missing is not made here: reading then says which data directory was expected.
    this.pointedAtMissing = !existsSync(this.bound);
    if (!options.readOnly && !this.pointedAtMissing) claimStateDir(id, gitDir, workTree);
  }

  /**
   * The state folder. Before the work tree's first run it does not exist yet: reads then find
   * nothing (in a read-only store, the old in-repository layout is read where it still is).
   */
  get root(): string {
    if (this.bound) return this.bound;
    return this.options.readOnly && hasLegacyState(this.gitDir) ? pointerDir(this.gitDir) : this.bind();
  }

  /** Whether this work tree has ChainLens state at all (no folder is made to answer). */
  get exists(): boolean {
    return this.bound !== null || (this.options.readOnly === true && hasLegacyState(this.gitDir));
  }

  private bind(): string {
    this.refuseMissingFolder();
    if (this.bound && existsSync(this.bound)) return this.bound;
    if (this.options.readOnly)
      throw new UserError('ChainLens state is read-only here (Restricted Mode)', 'environment');
    const id = ensurePointer(this.gitDir, this.workTree);
    const dir = claimStateDir(id, this.gitDir, this.workTree);
    ensurePrivateDir(dir);
    this.bound = dir;
    return dir;
  }

  private path(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  /** Where nothing has been written yet, reads answer "nothing" without making the folder. */
  private readPath(...parts: string[]): string | null {
    if (!this.exists) return null;
    return this.path(...parts);
  }

  /** Who is changing the run now (another process holding its lock), for `status`; null: nobody. */
  busy(): string | null {
    if (!this.bound) return null;
    const holder = lockHolder(join(this.bound, 'lock'), `the ChainLens run in ${this.workTree}`);
    return holder && `${holder}; shown as it is on disk`;
  }

  async hold<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    this.lockFile ??= new FileLock(join(this.bind(), 'lock'), `the ChainLens run in ${this.workTree}`);
    return this.lockFile.hold(operation, fn);
  }

  private readJson(path: string | null): unknown {
    const text = this.readText(path);
    return text === null ? null : this.parseJson(path!, text);
  }

  private readText(path: string | null): string | null {
    return path === null || !existsSync(path) ? null : readFileSync(path, 'utf8');
  }

  private parseJson(path: string, text: string): unknown {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new UserError(`ChainLens state file ${path} is corrupt: ${(e as Error).message}`, 'state');
    }
  }

  /**
   * A state file's content checked against its schema (skipped when it passed as this very text
   * when it was written: checkMemo.ts); a mismatch names the file and each JSON path.
   */
  private readChecked<K extends keyof StateContents>(
    path: string | null,
    kind: K,
    what: string,
  ): StateContents[K] | null {
    const text = this.readText(path);
    if (text === null) return null;
    const raw = this.parseJson(path!, text);
    if (passedCheck(path!, kind, text)) return raw as StateContents[K];
    const parsed = stateSchemas()[kind].safeParse(raw);
    if (!parsed.success)
      throw new UserError(`ChainLens state file ${path} is not ${what}`, 'state', describeIssues(path!, parsed.error));
    return parsed.data as StateContents[K];
  }

  /**
   * Writes `value` as its schema reads it (the same fields, in the schema's order) and remembers
   * that this text passes, when reading it back gives the same text (checkMemo.ts). A value the
   * schema rejects is written as it is, unremembered: the next read says what is wrong with it.
   */
  private writeChecked<K extends keyof StateContents>(
    path: string,
    kind: K,
    value: StateContents[K],
    indent?: number,
  ): void {
    const schema = stateSchemas()[kind];
    const serialise = (v: unknown) => JSON.stringify(v, null, indent) + '\n';
    const parsed = schema.safeParse(value);
    const text = serialise(parsed.success ? parsed.data : value);
    let passes = false;
    if (parsed.success) {
      const again = schema.safeParse(JSON.parse(text));
      passes = again.success && serialise(again.data) === text;
    }
    writeFileAtomic(path, text);
    rememberCheck(path, kind, text, passes);
  }

  currentRunId(): string | null {
    this.refuseMissingFolder();
    const p = this.readPath('current');
    return p && existsSync(p) ? readFileSync(p, 'utf8').trim() || null : null;
  }

  /**
   * The pointer names a folder that is not there: most likely another data directory than the run
   * was made with. Said plainly, rather than "no run here" (or a fresh, empty folder made there).
   */
  /** Whether the work tree's pointer names a state folder that does not exist. */
  get pointsAtMissingFolder(): boolean {
    return this.pointedAtMissing && !existsSync(this.bound!);
  }

  private refuseMissingFolder(): void {
    if (!this.pointsAtMissingFolder) return;
    throw new UserError(
      `${this.workTree} points at the ChainLens state folder ${this.bound}, which does not exist: CHAINLENS_DATA (or XDG_DATA_HOME, HOME) differs from when the run was made, or the folder was deleted. Set it as it was, or delete ${pointerPath(this.gitDir)} to start over`,
      'state',
    );
  }

  setCurrentRunId(runId: string): void {
    writeFileAtomic(this.path('current'), runId + '\n');
  }

  loadRun(runId: string): RunState | null {
    const path = this.readPath('runs', `${runId}.json`);
    const state = this.readChecked(path, 'run', 'a valid run');
    // The schema checks each field alone; a current step the run does not have would fail later, far from the file.
    if (state && state.currentStep !== null && !state.steps.some((s) => s.order === state.currentStep))
      throw new UserError(
        `ChainLens state file ${path} is damaged: currentStep ${state.currentStep} is not a step of the run (its steps are ${state.steps.map((s) => s.order).join(', ') || 'none'})`,
        'state',
      );
    return state;
  }

  saveRun(state: RunState): void {
    this.writeChecked(this.path('runs', `${state.runId}.json`), 'run', state, 2);
  }

  /** The ids of the runs whose state file exists (read from the folder's names; no file is opened). */
  listRunIds(): string[] {
    const dir = this.readPath('runs');
    if (!dir || !existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => /^[a-z0-9-]+\.json$/.test(f))
      .map((f) => f.replace(/\.json$/, ''));
  }

  listRuns(): RunState[] {
    return this.listRunIds()
      .map((id) => this.loadRun(id))
      .filter((s): s is RunState => s !== null)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  loadChain(runId: string): Chain | null {
    return this.readChecked(this.readPath('runs', `${runId}.chain.json`), 'chain', "a valid copy of the run's chain");
  }

  saveChain(runId: string, chain: Chain): void {
    this.writeChecked(this.path('runs', `${runId}.chain.json`), 'chain', chain);
  }

  saveRecorded(runId: string, patches: Record<string, string | null>): void {
    this.writeChecked(this.path('runs', `${runId}.recorded.json`), 'recorded', patches);
  }

  loadRecorded(runId: string): Record<string, string | null> {
    const path = this.readPath('runs', `${runId}.recorded.json`);
    return this.readChecked(path, 'recorded', 'a valid set of recorded patches') ?? {};
  }

  readJournal(): Journal | null {
    const path = this.readPath('journal.json');
    const value = this.readJson(path);
    if (value === null) return null;
    const problem = journalProblem(value);
    if (problem)
      throw new UserError(
        `ChainLens journal ${path}: ${problem}; it was kept as it is (nothing was done): remove it by hand once the work tree is as you want it`,
        'state',
      );
    return value as Journal;
  }

  writeJournal(journal: Journal): void {
    writeFileAtomic(this.path('journal.json'), JSON.stringify(journal) + '\n');
  }

  clearJournal(): void {
    const p = this.readPath('journal.json');
    if (p) rmSync(p, { force: true });
  }
}
