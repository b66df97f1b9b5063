// Process groups the harness started. Each code-server runs as the leader of its own group
// (spawn detached), so killing the group takes the extension hosts, pty host and file watcher
// with it. The exit/signal hooks are the safety net for a test file that dies before its
// after-hooks run: no code-server outlives the test process.
import type { ChildProcess } from 'node:child_process';

/** Group id -> what else to undo synchronously if the process exits without stop(). */
const live = new Map<number, () => void>();
let hooked = false;

function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is empty
  }
}

function groupAlive(pgid: number): boolean {
  return killGroup(pgid, 0 as unknown as NodeJS.Signals);
}

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  const killAll = (): void => {
    for (const [pgid, cleanup] of live) {
      killGroup(pgid, 'SIGKILL');
      try {
        cleanup();
      } catch {
        // best effort while exiting
      }
    }
    live.clear();
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
}

export function trackGroup(child: ChildProcess, cleanupSync: () => void = () => undefined): number {
  if (child.pid === undefined) throw new Error('process did not start');
  installHooks();
  live.set(child.pid, cleanupSync);
  return child.pid;
}

/** SIGTERM the group, give it graceMs to shut down, then SIGKILL whatever is left. */
export async function stopGroup(pgid: number, graceMs = 3000): Promise<void> {
  if (killGroup(pgid, 'SIGTERM')) {
    const deadline = Date.now() + graceMs;
    while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (groupAlive(pgid)) killGroup(pgid, 'SIGKILL');
    const killDeadline = Date.now() + 2000;
    while (groupAlive(pgid) && Date.now() < killDeadline) await new Promise((r) => setTimeout(r, 50));
  }
  live.delete(pgid);
}
