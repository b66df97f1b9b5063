import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import {
  detectTrajectoryFormat,
  jsonlLineProblem,
  JsonAssembler,
  JsonSplitter,
  openHandsEventLog,
  skipTrajectoryValue,
  splitTrajectoryDocument,
  trajectoriesFromDocument,
  trajectoriesFromRecord,
  wholeTrajectoryValue,
  type JsonPathKey,
  type TrajectoryDetection,
} from '../../core/trajectories';
import type { SourcePosition, Trajectory, TrajectoryProblem } from '../../protocol/trajectory';
import { JsonlLineSplitter } from './jsonlLines';

export interface StreamSink {
  progress?(bytesRead: number, totalBytes: number): void;
  detected?(detection: TrajectoryDetection): void;
  /** The first steps of a trajectory still being read. */
  preview?(trajectory: Trajectory): void;
  /** A trajectory read completely (JSONL: one per line as they come; JSON: at the end). */
  trajectory(trajectory: Trajectory): void;
  problem(problem: TrajectoryProblem): void;
}

export interface StreamOptions {
  signal?: AbortSignal;
  /** Where to start (a tail reader resuming a growing JSONL file) and the lines before it. */
  startOffset?: number;
  startLine?: number;
  /** Leave an unfinished last JSONL line for later instead of reporting it (the file is growing). */
  keepPartialTail?: boolean;
  /** Steps read before a preview goes out. */
  previewSteps?: number;
  chunkBytes?: number;
  /** Detection to use instead of sniffing (a tail reader already knows). */
  detection?: TrajectoryDetection;
  /** JSONL event logs: events already read (a tail reader extends them). */
  events?: { values: unknown[]; at: Pick<SourcePosition, 'line' | 'byteOffset'>[] };
}

export interface StreamResult {
  detection: TrajectoryDetection | null;
  totalBytes: number;
  /** JSONL: bytes of complete lines read and how many lines, where a tail reader resumes. */
  completeBytes: number;
  lines: number;
  /** JSONL event logs: every event read, for extending the log later. */
  events?: { values: unknown[]; at: Pick<SourcePosition, 'line' | 'byteOffset'>[] };
}

const DETECT_BYTES = 64 * 1024;

/**
 * Reads a trajectory file as a stream: never the whole text at once. JSONL is cut into lines
 * (each parsed alone; a bad line is reported with its number and skipped); a single JSON document
 * is cut into pieces by JsonSplitter so steps come out while the file is still being read.
 */
export async function streamTrajectoryFile(
  path: string,
  sink: StreamSink,
  options: StreamOptions = {},
): Promise<StreamResult> {
  const fh = await open(path, 'r');
  let totalBytes: number;
  let head: string;
  try {
    totalBytes = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.min(DETECT_BYTES, totalBytes));
    const { bytesRead } = await fh.read(buf, 0, buf.length, options.startOffset ?? 0);
    head = new TextDecoder('utf-8').decode(buf.subarray(0, bytesRead), { stream: true });
  } finally {
    await fh.close();
  }
  const detection = options.detection ?? detectTrajectoryFormat(path, head);
  const base = { detection, totalBytes, completeBytes: options.startOffset ?? 0, lines: options.startLine ?? 0 };
  if (!detection) {
    const trimmed = head.trimStart();
    sink.problem({
      severity: 'error',
      file: path,
      line: 1,
      column: 1,
      message:
        totalBytes === 0
          ? 'the file is empty'
          : !trimmed.startsWith('{') && !trimmed.startsWith('[')
            ? 'not a JSON or JSONL file'
            : 'not a trajectory format ChainLens knows (SWE-agent .traj, mini-swe-agent .traj.json / preds.json, OpenHands output.jsonl or SDK events)',
    });
    return base;
  }
  sink.detected?.(detection);
  return detection.container === 'jsonl'
    ? streamJsonl(path, detection, sink, options, totalBytes)
    : streamJson(path, detection, sink, options, totalBytes);
}

function readChunks(path: string, options: StreamOptions) {
  return createReadStream(path, {
    highWaterMark: options.chunkBytes ?? 1024 * 1024,
    start: options.startOffset ?? 0,
    signal: options.signal,
  });
}

async function streamJson(
  path: string,
  detection: TrajectoryDetection,
  sink: StreamSink,
  options: StreamOptions,
  totalBytes: number,
): Promise<StreamResult> {
  const previewAt = options.previewSteps ?? 50;
  let steps = 0;
  let previewed = false;
  const assembler: JsonAssembler = new JsonAssembler((piecePath) => {
    if (previewed || !isStepPiece(piecePath)) return;
    if (++steps < previewAt) return;
    previewed = true;
    // the document so far, read by the same adapter: the first steps, before the rest arrives
    const first = trajectoriesFromDocument(path, assembler.root, detection, []).trajectories[0];
    if (first) sink.preview?.(first);
  }, wholeTrajectoryValue);
  const splitter = new JsonSplitter(splitTrajectoryDocument, assembler, skipTrajectoryValue);
  const decoder = new TextDecoder('utf-8');
  let bytesRead = 0;
  for await (const chunk of readChunks(path, options) as AsyncIterable<Buffer>) {
    bytesRead += chunk.length;
    splitter.write(decoder.decode(chunk, { stream: true }));
    sink.progress?.(bytesRead, totalBytes);
    if (splitter.problem) break;
  }
  splitter.write(decoder.decode());
  const stop = splitter.end();
  const problems: TrajectoryProblem[] = assembler.problems.map((p) => ({
    severity: 'error',
    file: path,
    message: p.message,
    line: p.line,
    column: p.column,
    jsonPath: p.jsonPath,
  }));
  if (stop) {
    const kept = assembler.root === undefined ? '' : '; kept what came before';
    problems.push({
      severity: 'error',
      file: path,
      message: stop.message + kept,
      line: stop.line,
      column: stop.column,
      jsonPath: stop.jsonPath,
    });
  }
  if (assembler.root !== undefined) {
    const file = trajectoriesFromDocument(path, assembler.root, detection, problems);
    file.trajectories.forEach((t) => sink.trajectory(t));
  }
  problems.forEach((p) => sink.problem(p));
  return { detection, totalBytes, completeBytes: bytesRead, lines: 0 };
}

/** Pieces that are one step each: SWE-agent trajectory entries, mini-swe-agent messages, events. */
function isStepPiece(path: JsonPathKey[]): boolean {
  if (path.length === 2 && (path[0] === 'trajectory' || path[0] === 'messages' || path[0] === 'history')) return true;
  if (path.length === 4 && path[0] === 'attempts' && path[2] === 'trajectory') return true;
  return path.length === 1 && typeof path[0] === 'number';
}

async function streamJsonl(
  path: string,
  detection: TrajectoryDetection,
  sink: StreamSink,
  options: StreamOptions,
  totalBytes: number,
): Promise<StreamResult> {
  const previewAt = options.previewSteps ?? 50;
  const lines = new JsonlLineSplitter(options.startOffset ?? 0, options.startLine ?? 0);
  const eventLog = detection.lines === 'event-per-line';
  const events = options.events ?? { values: [], at: [] };
  let previewed = events.values.length >= previewAt;
  const handle = (text: string, at: Pick<SourcePosition, 'line' | 'byteOffset'>, last: boolean) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      sink.problem(jsonlLineProblem(path, at.line!, at.byteOffset!, e, last));
      return;
    }
    if (!eventLog) {
      const problems: TrajectoryProblem[] = [];
      trajectoriesFromRecord(path, value, detection, at, problems).forEach((t) => sink.trajectory(t));
      problems.forEach((p) => sink.problem(p));
      return;
    }
    events.values.push(value);
    events.at.push(at);
    if (!previewed && events.values.length >= previewAt) {
      previewed = true;
      sink.preview?.(openHandsEventLog(events.values, path, events.at));
    }
  };
  let bytesRead = options.startOffset ?? 0;
  for await (const chunk of readChunks(path, options) as AsyncIterable<Buffer>) {
    bytesRead += chunk.length;
    lines.push(chunk, (l) => handle(l.text, { line: l.line, byteOffset: l.byteOffset }, false));
    sink.progress?.(bytesRead, totalBytes);
  }
  const tail = lines.tail();
  let completeBytes = lines.completeBytes;
  let lineCount = lines.lines;
  if (tail && !options.keepPartialTail) {
    handle(tail.text, { line: tail.line, byteOffset: tail.byteOffset }, true);
    completeBytes = bytesRead;
    lineCount = tail.line;
  }
  if (eventLog && events.values.length) sink.trajectory(openHandsEventLog(events.values, path, events.at));
  return { detection, totalBytes, completeBytes, lines: lineCount, ...(eventLog ? { events } : {}) };
}
