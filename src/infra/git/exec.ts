import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/**
 * Runs one git command and returns its stdout. ChainLens spawns git directly instead of going
 * through simple-git (the original design named it): simple-git waits a fixed 50 ms after every command that
 * prints nothing (update-ref, read-tree, checkout -q, ...), which was 1.45 s of a 1.9 s checkout
 * (bench/checkout.ts). Arguments are built by ChainLens itself from validated refs, commit ids
 * and paths (see git.ts); anything a person typed goes after `--`.
 * Every git process ChainLens starts comes from this file, with the same cleaned environment.
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

/** The environment every git process gets: the ambient repository variables removed, no prompts. */
export function gitEnvironment(extra?: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  for (const k of AMBIENT) delete env[k];
  return { ...env, ...extra };
}

export interface GitProcessOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Whether the caller writes to git's stdin (default: closed). */
  stdin?: boolean;
}

/** Starts git for a caller that streams its output (archives); stdout and stderr are pipes. */
export function spawnGit(
  args: readonly string[],
  options: GitProcessOptions = {},
): ChildProcessByStdio<Writable | null, Readable, Readable> {
  const stdio = [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] as const;
  return spawn('git', args, {
    cwd: options.cwd,
    env: gitEnvironment(options.env),
    stdio: [...stdio],
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
}

/** Runs one git command and returns its stdout as bytes (object contents, sizes in bytes). */
export function runGitBytes(
  args: readonly string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    input?: string | Buffer;
    /** Exit codes besides 0 that are an answer, not a failure (`diff --no-index`: 1, the files differ). */
    answers?: readonly number[];
  },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, { cwd: options.cwd, env: options.env, stdin: options.input !== undefined });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => reject(new GitCommandError(args, null, `could not run git: ${e.message}`)));
    child.on('close', (code) => {
      if (code === 0 || (code !== null && options.answers?.includes(code))) resolve(Buffer.concat(out));
      else reject(new GitCommandError(args, code, Buffer.concat(err).toString('utf8')));
    });
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => {}); // git may exit before reading everything; its exit code tells
      child.stdin.end(options.input);
    }
  });
}

export async function runGit(args: readonly string[], options: Parameters<typeof runGitBytes>[1]): Promise<string> {
  return (await runGitBytes(args, options)).toString('utf8');
}

/**
 * `git <first> | git <second>`: `input` goes to the first's stdin, its stdout to the second's
 * stdin; resolves with the second's stdout once both exited 0, else rejects with the first
 * failure's GitCommandError (which names that command and its stderr).
 */
export async function runGitPipe(
  first: { args: readonly string[]; cwd: string; input: string },
  second: { args: readonly string[]; cwd: string },
): Promise<string> {
  const producer = spawnGit(first.args, { cwd: first.cwd, stdin: true });
  const consumer = spawnGit(second.args, { cwd: second.cwd, stdin: true });
  // A side that dies early closes its pipe; its exit code, not the other's EPIPE, tells why.
  producer.stdin?.on('error', () => {});
  consumer.stdin?.on('error', () => {});
  producer.stdout.pipe(consumer.stdin!);
  producer.stdin?.end(first.input);
  const finished = (child: typeof producer, args: readonly string[]) =>
    new Promise<string>((resolve, reject) => {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      if (child === consumer) child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('error', (e) => reject(new GitCommandError(args, null, `could not run git: ${e.message}`)));
      child.on('close', (code) => {
        if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
        else reject(new GitCommandError(args, code, Buffer.concat(err).toString('utf8')));
      });
    });
  // When the producer failed, the consumer fails only for want of its input ("early EOF"): the
  // producer's error is the one that says why, whichever process ended first.
  const [made, taken] = await Promise.allSettled([finished(producer, first.args), finished(consumer, second.args)]);
  if (made.status === 'rejected') throw made.reason;
  if (taken.status === 'rejected') throw taken.reason;
  return taken.value;
}
