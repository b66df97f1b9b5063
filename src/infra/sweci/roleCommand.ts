import { spawn } from 'node:child_process';
import { UserError } from '../../core/util/errors';

export interface RoleCommand {
  role: 'architect' | 'programmer';
  /** A shell command line, run with `sh -c` in the work tree. */
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutS: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
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
      o.signal?.removeEventListener('abort', onAbort);
      if (why) reject(new UserError(`the ${o.role} command ${why}`, 'environment'));
      else if (code !== 0) reject(new UserError(`the ${o.role} command ended with exit code ${code}`, 'environment'));
      else resolve();
    });
  });
}
