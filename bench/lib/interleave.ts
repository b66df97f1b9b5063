// What every bench shares: run the sides as processes, interleaved (A B B A A B ...), so load from
// other processes on a shared machine hits each side alike; report median, spread and the ratio
// of medians against the raw side measured in the same run.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface ProcessRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** From spawn to the process's exit, ms. */
  readonly ms: number;
  /** User + system CPU time of the process and its threads (and children), ms; with `cpu` only. */
  readonly cpuMs?: number;
}

/**
 * bash's `times` after the command prints the CPU time of its children (every thread): how a
 * process that works on several cores is told from one that waits less. bash starts on both sides.
 */
const WITH_TIMES = 'x=0; "$@" || x=$?; times >&2; exit $x';

function cpuOf(stderr: string): { stderr: string; cpuMs: number } {
  const lines = stderr.trimEnd().split('\n');
  const children = lines.pop() ?? '';
  lines.pop(); // the shell's own
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (secs.length !== 2) throw new Error(`no CPU times from bash's times: ${children}`);
  return { stderr: lines.length ? lines.join('\n') + '\n' : '', cpuMs: (secs[0] + secs[1]) * 1000 };
}

/** Runs `command` to its exit; the time counted is the whole process, start-up included. */
export function timedProcess(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; cpu?: boolean } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [file, argv] = options.cpu ? ['bash', ['-c', WITH_TIMES, 'bash', command, ...args]] : [command, args];
    const child = spawn(file, argv, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    // With `cpu`, on 'close': the times are the last thing written, after the command's exit.
    child.on(options.cpu ? 'close' : 'exit', (code) => {
      const ms = performance.now() - started;
      resolve(options.cpu ? { code, stdout, ms, ...cpuOf(stderr) } : { code, stdout, stderr, ms });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export interface Side {
  readonly name: string;
  /** One measurement, ms; throws when the run did not do what it should. */
  readonly run: (i: number) => Promise<number>;
}

export interface Measured {
  readonly name: string;
  readonly ms: number[];
}

/** `reps` rounds of every side, the order rotating each round (A B, B A, ...). */
export async function interleave(sides: readonly Side[], reps: number): Promise<Measured[]> {
  const out = sides.map((s) => ({ name: s.name, ms: [] as number[] }));
  for (let i = 0; i < reps; i++) {
    const order = sides.map((_, k) => k);
    if (i % 2 === 1) order.reverse();
    for (const k of order) out[k].ms.push(await sides[k].run(i));
  }
  return out;
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** One line per side: median, spread (min-max), and its ratio to `baseline`'s median. */
export function report(title: string, measured: readonly Measured[], baseline: string): string {
  const base = measured.find((m) => m.name === baseline);
  const width = Math.max(...measured.map((m) => m.name.length));
  const lines = [title];
  for (const m of measured) {
    const med = median(m.ms);
    const ratio = base && m !== base ? `  ${(med / median(base.ms)).toFixed(2)}x ${baseline}` : '';
    lines.push(
      `  ${m.name.padEnd(width)}  median ${fmt(med).padStart(8)}  spread ${fmt(Math.min(...m.ms))}-${fmt(Math.max(...m.ms))}${ratio}`,
    );
  }
  return lines.join('\n');
}
