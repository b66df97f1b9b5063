// Telling a live ChainLens process from a dead one by what it left behind (a container label, a
// partial clone's name). A pid alone is not enough: pids are reused, so a leftover whose pid now
// belongs to some other process would never be cleaned. A process is identified by its pid plus
// its start time, which a reused pid does not share. See docs/reference/containers.md.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

let bootId: string | null | undefined;

/**
 * When the process `pid` started, as an opaque token, or null when this system does not say.
 * Linux: boot id + start time in clock ticks since boot (/proc/<pid>/stat, field 22); the boot id
 * keeps a token from an earlier boot from matching a process of this one. Elsewhere: `ps`'s start
 * time (macOS, BSD).
 */
export function processStartToken(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (process.platform === 'linux') {
    const stat = read(`/proc/${pid}/stat`);
    if (stat === null) return null;
    // The command name (field 2) is in parentheses and may hold spaces or ')': fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[19];
    bootId ??= read('/proc/sys/kernel/random/boot_id')?.trim() ?? '';
    return ticks ? `${bootId}:${ticks}` : null;
  }
  if (process.platform === 'win32') return null;
  const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 });
  const text = ps.status === 0 ? ps.stdout.trim() : '';
  return text || null;
}

let own: string | null | undefined;

/** This process's start token (computed once). */
export function ownStartToken(): string | null {
  if (own === undefined) own = processStartToken(process.pid);
  return own;
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function pidRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process that recorded (`pid`, `startToken`) has ended: its pid runs no process, or
 * runs one that started at another time (the pid was reused). When either start time is unknown,
 * only a pid that runs nothing counts as ended: a live process's leftovers are never taken.
 */
export function processGone(pid: number, startToken: string | null | undefined): boolean {
  if (!pidRunning(pid)) return true;
  if (!startToken) return false;
  const now = processStartToken(pid);
  return now !== null && now !== startToken;
}
