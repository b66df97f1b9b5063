import type { SourcePosition, Trajectory, TrajectoryFile, TrajectoryProblem } from '../../protocol/trajectory';
import { stripBom } from '../util/bom';
import { miniSweAgentTrajectory } from './adapters/miniSweAgent';
import { openHandsInstance } from './adapters/openHands';
import { openHandsEventLog } from './adapters/openHandsSdk';
import { predictionTrajectories } from './adapters/predictions';
import { sweAgentTrajectories } from './adapters/sweAgent';
import { detectTrajectoryFormat, type TrajectoryDetection } from './detectFormat';
import { readJsonDocument } from './json/readJsonDocument';

/**
 * Any supported trajectory file, from its text: detection, then the adapter. Whatever could be
 * read is returned; what could not is in `problems` with the file and position.
 */
export function parseTrajectory(fileName: string, withBom: string): TrajectoryFile {
  const text = stripBom(withBom);
  const detection = detectTrajectoryFormat(fileName, text.slice(0, 65536));
  if (!detection) return unknownFormat(fileName, text);
  if (detection.container === 'jsonl') return parseJsonl(fileName, text, detection);
  const read = readJsonDocument(text);
  const problems: TrajectoryProblem[] = read.problems.map((p) => ({
    severity: 'error',
    file: fileName,
    message: read.value === undefined ? p.message : `${p.message}; kept what came before`,
    line: p.line,
    column: p.column,
    ...(p.jsonPath ? { jsonPath: p.jsonPath } : {}),
  }));
  if (read.value === undefined)
    return { file: fileName, format: detection.format, version: detection.version, trajectories: [], problems };
  return trajectoriesFromDocument(fileName, read.value, detection, problems);
}

/** The adapter for an already-parsed JSON document (the streaming loader assembles one). */
export function trajectoriesFromDocument(
  fileName: string,
  doc: unknown,
  detection: TrajectoryDetection,
  problems: TrajectoryProblem[] = [],
): TrajectoryFile {
  let trajectories: Trajectory[] = [];
  switch (detection.format) {
    case 'swe-agent':
      trajectories = sweAgentTrajectories(doc, fileName, problems);
      break;
    case 'mini-swe-agent': {
      const t = miniSweAgentTrajectory(doc, fileName, problems);
      trajectories = t ? [t] : [];
      break;
    }
    case 'predictions':
      trajectories = predictionTrajectories(doc, fileName, problems);
      break;
    case 'openhands':
      if (Array.isArray(doc) && doc.some((e) => typeof e === 'object' && e !== null && 'kind' in e))
        trajectories = [openHandsEventLog(doc, fileName)];
      else if (Array.isArray(doc)) trajectories = doc.flatMap((d) => openHandsInstance(d, fileName, problems) ?? []);
      else trajectories = [openHandsInstance(doc, fileName, problems)].flatMap((t) => t ?? []);
      break;
  }
  return {
    file: fileName,
    format: detection.format,
    version: trajectories[0]?.source.version ?? detection.version,
    trajectories,
    problems,
  };
}

/** One JSONL record (a line already parsed) to its trajectories. */
export function trajectoriesFromRecord(
  fileName: string,
  value: unknown,
  detection: TrajectoryDetection,
  at: Pick<SourcePosition, 'line' | 'byteOffset'>,
  problems: TrajectoryProblem[],
): Trajectory[] {
  if (detection.format === 'predictions') return predictionTrajectories(value, fileName, problems, at);
  const t = openHandsInstance(value, fileName, problems, at);
  return t ? [t] : [];
}

export function jsonlLineProblem(
  fileName: string,
  line: number,
  byteOffset: number,
  error: unknown,
  last: boolean,
): TrajectoryProblem {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    severity: 'error',
    file: fileName,
    line,
    byteOffset,
    message: last
      ? `line ${line} is cut off (${reason}); skipped`
      : `line ${line} is not valid JSON (${reason}); skipped`,
  };
}

function parseJsonl(fileName: string, text: string, detection: TrajectoryDetection): TrajectoryFile {
  const problems: TrajectoryProblem[] = [];
  const trajectories: Trajectory[] = [];
  const events: unknown[] = [];
  const eventAt: Pick<SourcePosition, 'line' | 'byteOffset'>[] = [];
  let offset = 0;
  let byte = 0;
  let line = 0;
  while (offset < text.length) {
    const nl = text.indexOf('\n', offset);
    const end = nl < 0 ? text.length : nl;
    const raw = text.slice(offset, end);
    line++;
    const at = { line, byteOffset: byte };
    byte += utf8Length(raw) + (nl < 0 ? 0 : 1);
    offset = end + 1;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      problems.push(jsonlLineProblem(fileName, line, at.byteOffset, e, nl < 0));
      continue;
    }
    if (detection.lines === 'event-per-line') {
      events.push(value);
      eventAt.push(at);
    } else trajectories.push(...trajectoriesFromRecord(fileName, value, detection, at, problems));
  }
  if (detection.lines === 'event-per-line' && events.length)
    trajectories.push(openHandsEventLog(events, fileName, eventAt));
  return {
    file: fileName,
    format: detection.format,
    version: trajectories[0]?.source.version ?? detection.version,
    trajectories,
    problems,
  };
}

function unknownFormat(fileName: string, text: string): TrajectoryFile {
  const trimmed = text.trimStart();
  const message =
    trimmed === ''
      ? 'the file is empty'
      : !trimmed.startsWith('{') && !trimmed.startsWith('[')
        ? 'not a JSON or JSONL file'
        : 'not a trajectory format ChainLens knows (SWE-agent .traj, mini-swe-agent .traj.json / preds.json, OpenHands output.jsonl or SDK events)';
  return {
    file: fileName,
    format: null,
    version: null,
    trajectories: [],
    problems: [{ severity: 'error', file: fileName, line: 1, column: 1, message }],
  };
}

export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
