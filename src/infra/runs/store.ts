import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ChainSchema, type Chain } from '../../protocol/chain';
import { describeIssues } from '../../core/formats/issues';
import { RunStateSchema, type RunState } from '../../protocol/run';
import type { Journal } from '../../core/run/journal';
import type { RunStorePort } from '../../core/run/ports';
import { UserError } from '../../core/util/errors';
import { writeFileAtomic } from '../files';

/** Recorded (agent) patches by instance id; null: the agent produced none. */
const RecordedPatchesSchema = z.record(z.string(), z.string().nullable());

/**
 * Run state in `<git dir>/chainlens/` (never in the work tree, so never in a diff):
 *   current                  id of the run the work tree belongs to
 *   runs/<id>.json           RunState
 *   runs/<id>.chain.json     the normalised chain as it was when the run started
 *   runs/<id>.recorded.json  recorded (agent) patches by instance id
 *   journal.json             an in-flight multi-write change (see core/run/journal.ts)
 * Every write is atomic (temp file + rename).
 */
export class RunStore implements RunStorePort {
  readonly root: string;

  constructor(gitDir: string) {
    this.root = join(gitDir, 'chainlens');
  }

  private path(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  private readJson(path: string): unknown {
    if (!existsSync(path)) return null;
    try {
      return JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new UserError(`ChainLens state file ${path} is corrupt: ${(e as Error).message}`, 'state');
    }
  }

  currentRunId(): string | null {
    const p = this.path('current');
    return existsSync(p) ? readFileSync(p, 'utf8').trim() || null : null;
  }

  setCurrentRunId(runId: string): void {
    writeFileAtomic(this.path('current'), runId + '\n');
  }

  loadRun(runId: string): RunState | null {
    const file = this.path('runs', `${runId}.json`);
    const raw = this.readJson(file);
    if (raw === null) return null;
    return this.validated(file, raw, RunStateSchema, 'a valid run');
  }

  saveRun(state: RunState): void {
    writeFileAtomic(this.path('runs', `${state.runId}.json`), JSON.stringify(state, null, 2) + '\n');
  }

  listRuns(): RunState[] {
    const dir = this.path('runs');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => /^[a-z0-9-]+\.json$/.test(f))
      .map((f) => this.loadRun(f.replace(/\.json$/, '')))
      .filter((s): s is RunState => s !== null)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  loadChain(runId: string): Chain | null {
    const file = this.path('runs', `${runId}.chain.json`);
    const raw = this.readJson(file);
    return raw === null ? null : this.validated(file, raw, ChainSchema, "a valid copy of the run's chain");
  }

  /** A state file's content checked against its schema; a mismatch names the file and each JSON path. */
  private validated<T>(file: string, raw: unknown, schema: z.ZodType<T>, what: string): T {
    const parsed = schema.safeParse(raw);
    if (!parsed.success)
      throw new UserError(`ChainLens state file ${file} is not ${what}`, 'state', describeIssues(file, parsed.error));
    return parsed.data;
  }

  saveChain(runId: string, chain: Chain): void {
    writeFileAtomic(this.path('runs', `${runId}.chain.json`), JSON.stringify(chain) + '\n');
  }

  saveRecorded(runId: string, patches: Record<string, string | null>): void {
    writeFileAtomic(this.path('runs', `${runId}.recorded.json`), JSON.stringify(patches) + '\n');
  }

  loadRecorded(runId: string): Record<string, string | null> {
    const file = this.path('runs', `${runId}.recorded.json`);
    const raw = this.readJson(file);
    return raw === null ? {} : this.validated(file, raw, RecordedPatchesSchema, 'a valid set of recorded patches');
  }

  processAlive(pid: number): boolean {
    if (pid <= 0) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  readJournal(): Journal | null {
    return this.readJson(this.path('journal.json')) as Journal | null;
  }

  writeJournal(journal: Journal): void {
    mkdirSync(this.root, { recursive: true });
    writeFileAtomic(this.path('journal.json'), JSON.stringify(journal) + '\n');
  }

  clearJournal(): void {
    rmSync(this.path('journal.json'), { force: true });
  }
}
