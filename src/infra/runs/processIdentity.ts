// Who a process is, in a way that survives pid reuse: the pid alone names a different program once
// the process died and the kernel handed the number out again. A lock records pid + start time
// (+ boot id + host), and a later reader decides whether that very process still runs.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface ProcessIdentity {
  pid: number;
  /** Linux: /proc/<pid>/stat field 22 (clock ticks after boot); null where there is no /proc. */
  startTime: string | null;
  /** Linux: /proc/sys/kernel/random/boot_id; a start time means nothing across a reboot. */
  bootId: string | null;
  host: string;
}

/**
 * Field 22 of /proc/<pid>/stat, or null when the process does not exist (or there is no /proc).
 * Field 2 is the command name in parentheses and may itself hold spaces and ')', so fields are
 * counted from the last ')'.
 */
export function processStartTime(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 is fields[19].
  return fields[19] ?? null;
}

let bootIdCache: string | null | undefined;

export function bootId(): string | null {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootIdCache = null;
    }
  }
  return bootIdCache;
}

let selfCache: ProcessIdentity | undefined;

export function currentProcess(): ProcessIdentity {
  selfCache ??= { pid: process.pid, startTime: processStartTime(process.pid), bootId: bootId(), host: hostname() };
  return selfCache;
}

/**
 * Whether the process `who` names still runs. Only answerable on this host: a process elsewhere
 * is assumed alive (callers must not break a lock they cannot check).
 */
export function processRuns(who: ProcessIdentity): boolean {
  const self = currentProcess();
  if (who.host !== self.host) return true;
  if (who.bootId && self.bootId && who.bootId !== self.bootId) return false;
  if (!pidExists(who.pid)) return false;
  // The pid exists: is it still the same process? Without /proc (macOS, Windows) the pid is all we have.
  if (who.startTime === null) return true;
  // A recorded start time comes from /proc, so /proc is here: no entry now means it just exited.
  return processStartTime(who.pid) === who.startTime;
}

function pidExists(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
