import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TrajectoryDetection } from '../../core/trajectories';
import { UserError } from '../../core/util/errors';
import type { Trajectory, TrajectoryFile, TrajectoryProblem } from '../../protocol/trajectory';
import { streamTrajectoryFile, type StreamSink } from './streamTrajectory';
import type { WorkerMessage, WorkerRequest } from './workerProtocol';

export interface TrajectoryLoadProgress {
  bytesRead: number;
  totalBytes: number;
  /** Trajectories read completely so far. */
  trajectoriesRead: number;
  /** The first steps of a trajectory, readable before the file is complete. */
  preview?: Trajectory;
  /** A trajectory that has just been read completely (JSONL: each line as it comes). */
  trajectory?: Trajectory;
}

export interface LoadTrajectoryOptions {
  onProgress?: (progress: TrajectoryLoadProgress) => void;
  signal?: AbortSignal;
  /**
   * 'auto' (default): files over 8 MiB are parsed in a worker thread when one can be started
   * (smaller ones parse in milliseconds, less than a worker takes to start); 'worker' insists.
   */
  thread?: 'auto' | 'worker' | 'current';
  /** Steps read before a preview goes out (default 50). */
  previewSteps?: number;
  /**
   * The bundled worker script, for hosts that know where they are installed (the extension:
   * `context.asAbsolutePath('dist/trajectory-worker.js')`). Default: beside this module.
   */
  workerScript?: string;
}

export interface ResumePoint {
  detection: TrajectoryDetection | null;
  totalBytes: number;
  /** JSONL: bytes of complete lines read and their count (a tail reader resumes there). */
  completeBytes: number;
  lines: number;
}

/**
 * Loads any supported trajectory file without reading it into one string: streamed, parsed in a
 * worker thread so the caller's thread (VS Code's extension host) stays responsive, with progress,
 * an early preview of the first steps, and cancellation through `signal`. Problems in the file
 * come back in the result; a file that cannot be opened throws a UserError.
 */
export async function loadTrajectoryFile(path: string, options: LoadTrajectoryOptions = {}): Promise<TrajectoryFile> {
  return (await loadTrajectoryFileResumable(path, options)).file;
}

export async function loadTrajectoryFileResumable(
  path: string,
  options: LoadTrajectoryOptions & { keepPartialTail?: boolean } = {},
): Promise<{ file: TrajectoryFile; resume: ResumePoint }> {
  options.signal?.throwIfAborted();
  const request: WorkerRequest = { path, previewSteps: options.previewSteps, keepPartialTail: options.keepPartialTail };
  const thread = options.thread ?? 'auto';
  const small = thread === 'auto' && (await sizeOf(path)) < WORKER_THRESHOLD_BYTES;
  const worker = thread === 'current' || small ? null : startWorker(request, options.workerScript);
  if (!worker && options.thread === 'worker')
    throw new Error('no trajectory worker available (dist/trajectory-worker.js is missing)');
  return worker ? runInWorker(worker, path, options) : runHere(path, options);
}

const WORKER_THRESHOLD_BYTES = 8 * 1024 * 1024;

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0; // the reader reports the real error
  }
}

/** The bundled worker beside dist/*.js, or the TypeScript source when running under tsx. */
function startWorker(request: WorkerRequest, script?: string): Worker | null {
  if (script) return new Worker(script, { workerData: request });
  const bundled = join(__dirname, 'trajectory-worker.js');
  if (existsSync(bundled)) return new Worker(bundled, { workerData: request });
  const source = join(__dirname, 'parseWorker.ts');
  if (!existsSync(source)) return null;
  let register: string;
  try {
    // assembled so bundlers leave it alone: only meaningful when running from source
    register = require.resolve(['tsx', 'cjs', 'api'].join('/'));
  } catch {
    return null;
  }
  const code = `require(${JSON.stringify(register)}).register(); require(${JSON.stringify(source)});`;
  return new Worker(code, { eval: true, workerData: request });
}

class FileCollector {
  readonly trajectories: Trajectory[] = [];
  readonly problems: TrajectoryProblem[] = [];
  detection: TrajectoryDetection | null = null;
  bytesRead = 0;
  totalBytes = 0;

  constructor(private readonly onProgress?: (p: TrajectoryLoadProgress) => void) {}

  progress(extra: Partial<TrajectoryLoadProgress> = {}): void {
    this.onProgress?.({
      bytesRead: this.bytesRead,
      totalBytes: this.totalBytes,
      trajectoriesRead: this.trajectories.length,
      ...extra,
    });
  }

  add(t: Trajectory): void {
    this.trajectories.push(t);
    this.progress({ trajectory: t });
  }

  file(path: string): TrajectoryFile {
    const d = this.detection;
    return {
      file: path,
      format: d?.format ?? null,
      version: this.trajectories[0]?.source.version ?? d?.version ?? null,
      trajectories: this.trajectories,
      problems: this.problems,
    };
  }
}

function runInWorker(
  worker: Worker,
  path: string,
  options: LoadTrajectoryOptions,
): Promise<{ file: TrajectoryFile; resume: ResumePoint }> {
  const c = new FileCollector(options.onProgress);
  let current: Trajectory | null = null;
  let expected = 0;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      void worker.terminate();
      finish(() => reject(options.signal?.reason ?? new DOMException('The load was cancelled', 'AbortError')));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: WorkerMessage) => {
      switch (m.type) {
        case 'progress':
          c.bytesRead = m.bytesRead;
          c.totalBytes = m.totalBytes;
          c.progress();
          return;
        case 'detected':
          c.detection = m.detection;
          return;
        case 'preview':
          c.progress({ preview: m.trajectory });
          return;
        case 'trajectory':
          current = { ...m.header, steps: [] };
          expected = m.stepCount;
          if (expected === 0) {
            c.add(current);
            current = null;
          }
          return;
        case 'steps':
          if (!current) return;
          for (const s of m.steps) current.steps.push(s);
          if (current.steps.length >= expected) {
            c.add(current);
            current = null;
          }
          return;
        case 'problem':
          c.problems.push(m.problem);
          return;
        case 'done':
          c.detection = m.detection;
          c.totalBytes = m.totalBytes;
          void worker.terminate();
          finish(() =>
            resolve({
              file: c.file(path),
              resume: {
                detection: m.detection,
                totalBytes: m.totalBytes,
                completeBytes: m.completeBytes,
                lines: m.lines,
              },
            }),
          );
          return;
        case 'error':
          void worker.terminate();
          finish(() => reject(openError(path, m.message, m.code)));
          return;
      }
    });
    worker.on('error', (e) => finish(() => reject(e)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`the trajectory worker stopped (exit code ${code}) before finishing ${path}`))),
    );
  });
}

async function runHere(
  path: string,
  options: LoadTrajectoryOptions & { keepPartialTail?: boolean },
): Promise<{ file: TrajectoryFile; resume: ResumePoint }> {
  const c = new FileCollector(options.onProgress);
  const sink: StreamSink = {
    progress(bytesRead, totalBytes) {
      c.bytesRead = bytesRead;
      c.totalBytes = totalBytes;
      c.progress();
    },
    detected: (d) => (c.detection = d),
    preview: (t) => c.progress({ preview: t }),
    trajectory: (t) => c.add(t),
    problem: (p) => c.problems.push(p),
  };
  try {
    const r = await streamTrajectoryFile(path, sink, {
      signal: options.signal,
      previewSteps: options.previewSteps,
      keepPartialTail: options.keepPartialTail,
    });
    c.detection = r.detection;
    return {
      file: c.file(path),
      resume: { detection: r.detection, totalBytes: r.totalBytes, completeBytes: r.completeBytes, lines: r.lines },
    };
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw openError(path, (e as Error).message, (e as NodeJS.ErrnoException).code);
  }
}

function openError(path: string, message: string, code: string | undefined): Error {
  if (code === 'ENOENT') return new UserError(`cannot read ${path}: no such file`, 'input');
  if (code === 'EISDIR') return new UserError(`cannot read ${path}: it is a directory`, 'input');
  if (code === 'EACCES' || code === 'EPERM') return new UserError(`cannot read ${path}: permission denied`, 'input');
  return new Error(`reading ${path} failed: ${message}`);
}
