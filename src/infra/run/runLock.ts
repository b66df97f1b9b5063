// One writer at a time: a lock file created exclusively and atomically (exclusiveFile.ts), so no
// reader ever sees a half-written lock. It names its holder: pid, process start time (Linux: with
// the boot id; src/infra/process/processIdentity.ts), host, command and since when. A lock whose
// holder is gone (dead pid, or the pid now belongs to a process started at another time) is stale
// and is broken; a live holder's lock never is, nor one from another host. See docs/run-state.md.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { RunInUseError } from '../../core/run/engine';
import { hostname } from 'node:os';
import { ownStartToken, processGone } from '../process/processIdentity';
import { createExclusive } from './exclusiveFile';
import { faultPoint } from './faults';

export interface LockRecord {
  pid: number;
  /** When the holder started (processStartToken), so a reused pid is not taken for it; null: unknown. */
  startToken: string | null;
  host: string;
  /** What holds it, for a person: "chainlens replay: start", "VS Code: submit". */
  command: string;
  /** The operation alone ("submit", "record the work tree"), so a caller can tell a brief background one. */
  operation?: string;
  since: string;
  /** Unique per acquisition: tells two operations of one process apart. */
  token: string;
}

let holderLabel = 'ChainLens';

/** What this process is, as lock messages name it ("chainlens replay", "VS Code"). */
export function setLockHolderLabel(label: string): void {
  holderLabel = label;
}

/** Locks this process holds now: path -> token (released on exit; tells in-process holders from leftovers). */
const held = new Map<string, string>();
process.on('exit', () => {
  for (const [path, token] of held) releaseIfOurs(path, token);
});

export interface LockHandle {
  readonly path: string;
  readonly released: boolean;
  release(): void;
}

function readRecord(path: string): LockRecord | null | 'garbage' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null; // released meanwhile
  }
  try {
    const r = JSON.parse(text) as LockRecord;
    return typeof r.pid === 'number' && typeof r.token === 'string' ? r : 'garbage';
  } catch {
    return 'garbage';
  }
}

function releaseIfOurs(path: string, token: string): void {
  const r = readRecord(path);
  if (r && r !== 'garbage' && r.token === token) {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  }
}

function isStale(path: string, r: LockRecord | 'garbage'): boolean {
  if (r === 'garbage') return true; // never written by a lock (writes are atomic): nobody holds it
  if (r.host !== hostname()) return false; // no way to check a process elsewhere
  // Ours: stale unless an operation of ours holds it now (else it was left behind by a bug or a throw).
  if (r.pid === process.pid && r.startToken === ownStartToken()) return held.get(path) !== r.token;
  return processGone(r.pid, r.startToken);
}

/**
 * Removes a stale lock. Two processes could both find it stale; the second must not delete the
 * lock the first has taken since, so breaking happens under a short-lived second lock and only
 * if the lock still holds the stale token.
 */
function breakStale(path: string, stale: LockRecord | 'garbage'): void {
  const breaker = `${path}.break`;
  const me = record('breaking a stale lock');
  try {
    createExclusive(breaker, JSON.stringify(me));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const other = readRecord(breaker);
    // A breaker dies only if killed in these few lines; then its leftover is stale like any lock.
    if (other && isStale(breaker, other)) releaseStaleBreaker(breaker, other);
    return;
  }
  try {
    const now = readRecord(path);
    const same =
      now === 'garbage' ? stale === 'garbage' : now !== null && stale !== 'garbage' && now.token === stale.token;
    if (same) unlinkSync(path);
  } finally {
    releaseIfOurs(breaker, me.token);
  }
}

function releaseStaleBreaker(breaker: string, other: LockRecord | 'garbage'): void {
  const again = readRecord(breaker);
  if (other === 'garbage' ? again === 'garbage' : again !== null && again !== 'garbage' && again.token === other.token)
    try {
      unlinkSync(breaker);
    } catch {
      // someone else removed it
    }
}

function record(operation: string): LockRecord {
  return {
    pid: process.pid,
    startToken: ownStartToken(),
    host: hostname(),
    command: `${holderLabel}: ${operation}`,
    operation,
    since: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    token: randomUUID(),
  };
}

function busyMessage(target: string, path: string, r: LockRecord | 'garbage'): string {
  if (r === 'garbage') return `${target} is locked (${path}); nothing was done`;
  const host = hostname();
  if (r.pid === process.pid && r.host === host)
    return `another ChainLens operation in this process (${r.command}, since ${r.since}) is changing ${target}; nothing was done: try again when it has finished`;
  const where = r.host === host ? '' : ` on host ${r.host}`;
  const unsure =
    r.host === host ? '' : ` (if no ChainLens process runs on ${r.host} any more, delete ${path} and try again)`;
  return `${target} is being changed by pid ${r.pid}${where} (${r.command}, since ${r.since}); nothing was done: try again when it has finished${unsure}`;
}

/**
 * Who holds the lock at `path` now, for a reader that does not take it (`status`): "the ChainLens
 * run in /w is being changed by pid 4242 (chainlens submit: submit, since …)"; null when nobody
 * does (no lock, or a stale one: its holder is gone), or when this process holds it.
 */
export function lockHolder(path: string, target: string): string | null {
  const r = readRecord(path);
  if (r === null || r === 'garbage' || isStale(path, r)) return null;
  if (r.pid === process.pid && r.host === hostname()) return null;
  const where = r.host === hostname() ? '' : ` on host ${r.host}`;
  return `${target} is being changed by pid ${r.pid}${where} (${r.command}, since ${r.since})`;
}

/**
 * Takes the lock at `path` at once or throws RunInUseError naming the holder (never waits: a
 * second command is refused, not queued). `target` says what is locked, for the message.
 */
export function acquireLock(path: string, operation: string, target: string): LockHandle {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const mine = record(operation);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      createExclusive(path, JSON.stringify(mine) + '\n');
    } catch (e) {
      // The folder of checkout locks is removed when it empties (workspace.ts): make it again.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        continue;
      }
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = readRecord(path);
      if (holder === null) continue; // released between our attempt and the read
      if (!isStale(path, holder))
        throw new RunInUseError(busyMessage(target, path, holder), holder === 'garbage' ? undefined : holder.operation);
      breakStale(path, holder);
      continue;
    }
    held.set(path, mine.token);
    let released = false;
    faultPoint(`locked:${operation}`);
    return {
      path,
      get released() {
        return released;
      },
      release() {
        if (released) return;
        released = true;
        held.delete(path);
        releaseIfOurs(path, mine.token);
      },
    };
  }
  throw new RunInUseError(`${target} is contended by several ChainLens processes at once; nothing was done: try again`);
}

/** Locks this async call chain holds, so a nested operation of the same owner re-enters instead of refusing itself. */
const inside = new AsyncLocalStorage<ReadonlyMap<FileLock, LockHandle>>();

/** A lock file held around async operations, re-entrant within one call chain of one owner. */
export class FileLock {
  constructor(
    readonly path: string,
    /** What is locked, for messages: "the run in /home/me/work". */
    readonly target: string,
  ) {}

  async hold<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    const outer = inside.getStore();
    const mine = outer?.get(this);
    if (mine && !mine.released) return fn();
    const handle = acquireLock(this.path, operation, this.target);
    try {
      return await inside.run(new Map([...(outer ?? []), [this, handle]]), fn);
    } finally {
      handle.release();
    }
  }

  /** Whether this call chain holds the lock now. */
  get heldHere(): boolean {
    const mine = inside.getStore()?.get(this);
    return !!mine && !mine.released;
  }
}
