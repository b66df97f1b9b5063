import { watch, type FSWatcher } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { detectTrajectoryFormat, type TrajectoryDetection } from '../../core/trajectories';
import type { SourcePosition, Trajectory, TrajectoryFile, TrajectoryProblem } from '../../protocol/trajectory';
import { loadTrajectoryFileResumable, type LoadTrajectoryOptions } from './loadTrajectoryFile';
import { streamTrajectoryFile } from './streamTrajectory';

export interface TrajectoryFileChange {
  file: TrajectoryFile;
  /** 'initial': first load; 'appended': a JSONL file grew and only its new lines were read; 'reloaded': read again in full. */
  reason: 'initial' | 'appended' | 'reloaded';
  /** Trajectories new or changed since the previous notification. */
  changed: Trajectory[];
}

export interface TrajectoryWatcher {
  /** Settles after the first load (rejects if the file cannot be read). */
  readonly ready: Promise<void>;
  close(): void;
}

export interface WatchOptions {
  onError?: (error: Error) => void;
  /** Quiet time before a change is read (default 100 ms): a writer's burst becomes one update. */
  debounceMs?: number;
  thread?: LoadTrajectoryOptions['thread'];
}

interface State {
  file: TrajectoryFile;
  detection: TrajectoryDetection | null;
  ino: number;
  size: number;
  mtimeMs: number;
  completeBytes: number;
  lines: number;
  events?: { values: unknown[]; at: Pick<SourcePosition, 'line' | 'byteOffset'>[] };
}

/**
 * Live view of a trajectory file a running agent is still writing. JSONL files (OpenHands
 * output.jsonl, SDK event logs) are read only from where the last read stopped, and a line still
 * being written waits for its newline; SWE-agent and mini-swe-agent rewrite their whole JSON file
 * after every step, so those are read again in full (debounced, a stale read cancelled). A file
 * replaced or truncated is read again from the start.
 */
export function watchTrajectoryFile(
  path: string,
  onChange: (change: TrajectoryFileChange) => void,
  options: WatchOptions = {},
): TrajectoryWatcher {
  const debounceMs = options.debounceMs ?? 100;
  let state: State | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let inflight: AbortController | null = null;
  let watcher: FSWatcher | null = null;
  const report = (e: unknown) => {
    if (!closed && (e as Error)?.name !== 'AbortError')
      options.onError?.(e instanceof Error ? e : new Error(String(e)));
  };

  const fullLoad = async (reason: 'initial' | 'reloaded') => {
    inflight?.abort();
    const controller = (inflight = new AbortController());
    const info = await stat(path);
    const detection = await detect(path);
    let next: State;
    if (detection?.lines === 'event-per-line') {
      next = await readEventLog(path, detection, info, controller.signal);
    } else {
      const { file, resume } = await loadTrajectoryFileResumable(path, {
        signal: controller.signal,
        keepPartialTail: true,
        thread: options.thread,
      });
      next = {
        file,
        detection: resume.detection,
        ino: info.ino,
        size: info.size,
        mtimeMs: info.mtimeMs,
        completeBytes: resume.completeBytes,
        lines: resume.lines,
      };
    }
    if (closed || controller.signal.aborted) return;
    state = next;
    onChange({ file: next.file, reason, changed: next.file.trajectories });
  };

  const update = async () => {
    if (closed) return;
    let info;
    try {
      info = await stat(path);
    } catch (e) {
      report(e);
      return;
    }
    const s = state;
    if (!s || info.ino !== s.ino || info.size < s.completeBytes) return fullLoad('reloaded');
    if (s.detection?.container !== 'jsonl') {
      if (info.size !== s.size || info.mtimeMs !== s.mtimeMs) return fullLoad('reloaded');
      return;
    }
    if (info.size === s.completeBytes) return;
    const added: Trajectory[] = [];
    const problems: TrajectoryProblem[] = [];
    let eventLog: Trajectory | null = null;
    const r = await streamTrajectoryFile(
      path,
      {
        trajectory: (t) => (s.detection?.lines === 'event-per-line' ? (eventLog = t) : added.push(t)),
        problem: (p) => problems.push(p),
      },
      {
        startOffset: s.completeBytes,
        startLine: s.lines,
        keepPartialTail: true,
        detection: s.detection,
        events: s.events,
      },
    );
    if (closed) return;
    s.completeBytes = r.completeBytes;
    s.lines = r.lines;
    s.size = info.size;
    s.mtimeMs = info.mtimeMs;
    if (!added.length && !problems.length && !eventLog) return;
    const trajectories = eventLog ? [eventLog] : [...s.file.trajectories, ...added];
    s.file = { ...s.file, trajectories, problems: [...s.file.problems, ...problems] };
    onChange({ file: s.file, reason: 'appended', changed: eventLog ? [eventLog] : added });
  };

  const schedule = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      running = running.then(update).catch(report);
    }, debounceMs);
  };

  const ready = (running = fullLoad('initial'));
  ready.then(
    () => {
      if (closed) return;
      // watch the directory: writers that replace the file (write + rename) keep being seen
      watcher = watch(dirname(path), (_event, name) => {
        if (!name || name === basename(path)) schedule();
      });
      watcher.on('error', report);
      schedule();
    },
    () => undefined,
  );
  return {
    ready,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      inflight?.abort();
      watcher?.close();
    },
  };
}

async function detect(path: string): Promise<TrajectoryDetection | null> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return detectTrajectoryFormat(path, new TextDecoder('utf-8').decode(buf.subarray(0, bytesRead), { stream: true }));
  } finally {
    await fh.close();
  }
}

/** SDK event logs stay on this thread: their events are kept so appended lines extend the log. */
async function readEventLog(
  path: string,
  detection: TrajectoryDetection,
  info: { ino: number; size: number; mtimeMs: number },
  signal: AbortSignal,
): Promise<State> {
  const trajectories: Trajectory[] = [];
  const problems: TrajectoryProblem[] = [];
  const events = { values: [] as unknown[], at: [] as Pick<SourcePosition, 'line' | 'byteOffset'>[] };
  const r = await streamTrajectoryFile(
    path,
    { trajectory: (t) => trajectories.push(t), problem: (p) => problems.push(p) },
    { signal, keepPartialTail: true, detection, events },
  );
  return {
    file: { file: path, format: detection.format, version: detection.version, trajectories, problems },
    detection,
    ino: info.ino,
    size: info.size,
    mtimeMs: info.mtimeMs,
    completeBytes: r.completeBytes,
    lines: r.lines,
    events,
  };
}
