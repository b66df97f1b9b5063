import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { UserError } from '../../core/util/errors';
import { writeFileAtomic } from '../files';
import { processGone, processStartToken } from '../process/processIdentity';

export interface RoleCommand {
  role: 'architect' | 'programmer';
  /** A shell command line, run with `sh -c` in the work tree. */
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutS: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
  /**
   * Where the role's process group is noted while it runs (outside the work tree): a caller
   * killed with SIGKILL cannot end it, so the next one does (endLeftRole) before it starts over.
   */
  pidFile?: string;
}

/**
 * Ends a role's process group a killed caller left running (its pid file names it), so it
 * cannot go on editing a work tree that is about to be reset. A pid now used by another process
 * (its start differs) is left alone.
 */
export function endLeftRole(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  try {
    const { pid, startToken } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; startToken: string | null };
    if (!processGone(pid, startToken)) process.kill(-pid, 'SIGKILL');
  } catch {
    // torn file or already gone: nothing to end
  }
  rmSync(pidFile, { force: true });
}

/**
 * Runs one role's command (an agent CLI, a script) to its end, as SWE-CI calls its CLI agent per
 * role. Its output streams to `onOutput`; a non-zero exit, a timeout or a cancellation is an error
 * naming the role. The whole process group is ended on timeout or cancellation.
 */
export function runRoleCommand(o: RoleCommand): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', o.command], {
      cwd: o.cwd,
      env: { ...process.env, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (o.pidFile && child.pid)
      writeFileAtomic(o.pidFile, JSON.stringify({ pid: child.pid, startToken: processStartToken(child.pid) }) + '\n');
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    let why: string | null = null;
    const timer = setTimeout(() => {
      why = `did not finish within ${o.timeoutS} s`;
      kill();
    }, o.timeoutS * 1000);
    const onAbort = () => {
      why = 'was cancelled';
      kill();
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (d: Buffer) => o.onOutput?.(d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => o.onOutput?.(d.toString('utf8')));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new UserError(`the ${o.role} command could not start: ${e.message}`, 'environment'));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (o.pidFile) rmSync(o.pidFile, { force: true });
      o.signal?.removeEventListener('abort', onAbort);
      if (why) reject(new UserError(`the ${o.role} command ${why}`, 'environment'));
      else if (code !== 0) reject(new UserError(`the ${o.role} command ended with exit code ${code}`, 'environment'));
      else resolve();
    });
  });
}
