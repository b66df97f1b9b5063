import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import {
  BATCH_FORMAT,
  BATCH_VERSION,
  BatchManifestSchema,
  BatchRecordSchema,
  ChainErrorEvidenceSchema,
  type BatchManifest,
  type BatchRecord,
  type ChainErrorEvidence,
} from '../../protocol/batch';
import { logPath, recordPath, type StepKey } from '../../core/batch';
import { describeIssues } from '../../core/formats/issues';
import { UserError } from '../../core/util/errors';
import { writeFileAtomic } from '../files';
import { processGone } from '../process/processIdentity';
import { acquireLock, type LockHandle } from '../run/runLock';

const MANIFEST = 'manifest.json';
/** A write killed between its temp file and the rename leaves `.<name>.<pid>.<ms>.tmp` (files.ts). */
const TORN_WRITE = /^\..+\.\d+\.\d+\.tmp$/;

/**
 * A batch run directory (docs/reference/batch.md, "Run directory"): everything of a batch lives
 * under it: the manifest, one record per step, the logs, the reports, and while it runs the work
 * trees (`work/`) and their run state (`state/`, the data directory of those work trees), which
 * are thrown away when a lane is done and rebuilt from scratch when a killed batch resumes.
 */
export class BatchRunDir {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  get stateRoot(): string {
    return join(this.root, 'state');
  }

  get workRoot(): string {
    return join(this.root, 'work');
  }

  get exists(): boolean {
    return existsSync(join(this.root, MANIFEST));
  }

  /** The manifest, checked: a directory of another ChainLens version (or none at all) is refused. */
  readManifest(): BatchManifest {
    const path = join(this.root, MANIFEST);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      const why =
        (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `is not JSON (${(e as Error).message})`;
      throw new UserError(`${path} ${why}: ${this.root} is not a ChainLens batch run directory`, 'input');
    }
    const head = raw as { format?: unknown; version?: unknown };
    if (head?.format !== BATCH_FORMAT)
      throw new UserError(
        `${path}: $.format: '${String(head?.format)}' is not '${BATCH_FORMAT}'; not a batch run directory`,
        'input',
      );
    if (head.version !== BATCH_VERSION)
      throw new UserError(
        `${path}: $.version: the run directory was written by another ChainLens version (batch format ${String(head.version)}); this one reads format ${BATCH_VERSION}. Use that version, or start a new run directory`,
        'input',
      );
    const parsed = BatchManifestSchema.safeParse(raw);
    if (!parsed.success)
      throw new UserError(`${path} is not a valid batch manifest`, 'input', describeIssues(path, parsed.error));
    return parsed.data;
  }

  writeManifest(m: BatchManifest): void {
    writeFileAtomic(join(this.root, MANIFEST), JSON.stringify(m, null, 2) + '\n');
  }

  /** One writer per run directory: a second batch on it is refused at once, naming the holder. */
  lock(): LockHandle {
    mkdirSync(this.root, { recursive: true });
    return acquireLock(join(this.root, 'batch.lock'), 'batch', `the batch run directory ${this.root}`);
  }

  /**
   * A batch process on this machine works on the directory now: its lock names a live process.
   * A lock left by a killed batch names a process that is gone; one from another host cannot be
   * checked and counts as held.
   */
  get heldByLiveProcess(): boolean {
    let holder: { pid?: unknown; startToken?: unknown; host?: unknown };
    try {
      holder = JSON.parse(readFileSync(join(this.root, 'batch.lock'), 'utf8')) as typeof holder;
    } catch {
      return false; // no lock, or one torn by hand: nobody holds it
    }
    if (typeof holder.pid !== 'number') return false;
    if (holder.host !== hostname()) return true;
    return !processGone(holder.pid, typeof holder.startToken === 'string' ? holder.startToken : null);
  }

  /**
   * Clears what a killed run left that is not a result: temp files of torn writes, and the work
   * trees and state of lanes that were under way (they are rebuilt; only records count).
   */
  clearLeftovers(): void {
    rmSync(this.workRoot, { recursive: true, force: true });
    rmSync(this.stateRoot, { recursive: true, force: true });
    for (const dir of ['records', 'logs', 'evidence']) removeTornWrites(join(this.root, dir));
  }

  readRecords(): BatchRecord[] {
    const dir = join(this.root, 'records');
    if (!existsSync(dir)) return [];
    const out: BatchRecord[] = [];
    const problems: string[] = [];
    for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      const path = join(dir, rel);
      if (!rel.endsWith('.json') || TORN_WRITE.test(rel.split(/[\\/]/).pop()!) || !statSync(path).isFile()) continue;
      try {
        const parsed = BatchRecordSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        if (parsed.success) out.push(parsed.data);
        else problems.push(...describeIssues(path, parsed.error));
      } catch (e) {
        problems.push(`${path}: ${(e as Error).message}`);
      }
    }
    if (problems.length) throw new UserError(`${dir} holds records this ChainLens cannot read`, 'input', problems);
    return out;
  }

  /** The chain-error evidence of `chainlens evidence` (docs/reference/metrics.md); [] when none was gathered. */
  readEvidence(): ChainErrorEvidence[] {
    const dir = join(this.root, 'evidence');
    if (!existsSync(dir)) return [];
    const out: ChainErrorEvidence[] = [];
    const problems: string[] = [];
    for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      const path = join(dir, rel);
      if (!rel.endsWith('.json') || TORN_WRITE.test(rel.split(/[\\/]/).pop()!) || !statSync(path).isFile()) continue;
      try {
        const parsed = ChainErrorEvidenceSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        if (parsed.success) out.push(parsed.data);
        else problems.push(...describeIssues(path, parsed.error));
      } catch (e) {
        problems.push(`${path}: ${(e as Error).message}`);
      }
    }
    if (problems.length) throw new UserError(`${dir} holds evidence this ChainLens cannot read`, 'input', problems);
    return out;
  }

  /** `evidence/<chain>/<source>/step-<order>.json`, written atomically. */
  writeEvidence(e: ChainErrorEvidence): void {
    const rel = recordPath({ chainId: e.chain_id, source: e.source, mode: 'seq', order: e.order }).replace(
      /^records\//,
      'evidence/',
    );
    writeFileAtomic(join(this.root, rel), JSON.stringify(e, null, 2) + '\n');
  }

  /** Written atomically: a reader, or a resumed batch, sees the whole record or none. */
  writeRecord(r: BatchRecord): void {
    writeFileAtomic(
      join(this.root, recordPath({ chainId: r.chain_id, source: r.source, mode: r.mode, order: r.order })),
      JSON.stringify(r, null, 2) + '\n',
    );
  }

  /** Moves a step's log from its evaluation folder into logs/; returns its path relative to the run directory. */
  keepLog(step: StepKey, from: string, run = 1): string {
    const rel = logPath(step, run);
    const to = join(this.root, rel);
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    return relative(this.root, to).split('\\').join('/');
  }
}

function removeTornWrites(dir: string): void {
  if (!existsSync(dir)) return;
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    if (TORN_WRITE.test(rel.split(/[\\/]/).pop()!)) rmSync(join(dir, rel), { force: true });
}
