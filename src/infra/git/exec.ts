import { spawn } from 'node:child_process';

/**
 * Runs one git command and returns its stdout. ChainLens spawns git directly instead of going
 * through simple-git (the original design named it): simple-git waits a fixed 50 ms after every command that
 * prints nothing (update-ref, read-tree, checkout -q, ...), which was 1.45 s of a 1.9 s checkout
 * (bench/checkout.ts). Arguments are built by ChainLens itself from validated refs, commit ids
 * and paths (see git.ts); anything a person typed goes after `--`.
 */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(stderr.trim() || `git ${args[0]} failed with exit code ${exitCode}`);
    this.name = 'GitCommandError';
  }
}

/** Variables that would point git at another repository or index than the one we name. */
const AMBIENT = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

function environment(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  for (const k of AMBIENT) delete env[k];
  return { ...env, ...extra };
}

export function runGit(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; input?: string | Buffer },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: options.cwd,
      env: environment(options.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => reject(new GitCommandError(args, null, `could not run git: ${e.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new GitCommandError(args, code, Buffer.concat(err).toString('utf8')));
    });
    if (options.input !== undefined) {
      child.stdin!.on('error', () => {}); // git may exit before reading everything; its exit code tells
      child.stdin!.end(options.input);
    }
  });
}
