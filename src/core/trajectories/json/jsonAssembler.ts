import {
  formatJsonPath,
  type ContainerKind,
  type JsonPathKey,
  type JsonPiece,
  type JsonSplitSink,
  type SkipPredicate,
  type SplitPredicate,
} from './jsonSplitter';

export interface PieceProblem {
  message: string;
  line: number;
  column: number;
  jsonPath: string;
}

interface OpenContainer {
  value: object;
  /** Attached when it closes, not when it opens (a step is kept whole or not at all). */
  whole: boolean;
  /** A piece inside a whole container was not valid JSON: the container is dropped. */
  broken: boolean;
}

/**
 * Rebuilds the document from a JsonSplitter's pieces: containers are attached to their parent as
 * soon as they open, so a document cut short keeps every piece that completed (e.g. the first 40
 * elements of `$.trajectory`) and simply lacks the rest. A piece that is not valid JSON is left
 * out and reported with its position. Containers `keepWhole` names are split only so that a
 * member can be skipped; they are attached when they close, so a cut or damaged one is dropped
 * rather than kept half-read.
 */
export class JsonAssembler implements JsonSplitSink {
  root: unknown = undefined;
  readonly problems: PieceProblem[] = [];
  private readonly stack: OpenContainer[] = [];

  /** `onPiece`: a piece, or a container kept whole, has been attached at `path`. */
  constructor(
    private readonly onPiece?: (path: JsonPathKey[], value: unknown) => void,
    private readonly keepWhole: (path: readonly JsonPathKey[]) => boolean = () => false,
  ) {}

  open(path: JsonPathKey[], kind: ContainerKind): void {
    const value = kind === 'object' ? {} : [];
    const whole = this.keepWhole(path);
    if (!whole) this.attach(path, value);
    this.stack.push({ value, whole, broken: false });
  }

  close(path: JsonPathKey[]): void {
    const done = this.stack.pop();
    if (!done?.whole) return;
    if (done.broken) {
      const parent = this.stack.at(-1);
      if (parent?.whole) parent.broken = true;
      return;
    }
    this.attach(path, done.value);
    this.onPiece?.(path, done.value);
  }

  piece(piece: JsonPiece): void {
    let value: unknown;
    try {
      value = JSON.parse(piece.text);
    } catch (e) {
      this.problems.push(pieceProblem(piece, e));
      const parent = this.stack.at(-1);
      if (parent?.whole) parent.broken = true;
      return;
    }
    this.attach(piece.path, value);
    this.onPiece?.(piece.path, value);
  }

  private attach(path: JsonPathKey[], value: unknown): void {
    const parent = this.stack.at(-1)?.value;
    if (parent === undefined) {
      this.root = value;
      return;
    }
    const key = path[path.length - 1];
    if (Array.isArray(parent)) parent.push(value);
    else (parent as Record<string, unknown>)[key as string] = value;
  }
}

/** The position of a JSON.parse failure inside a piece, in file coordinates. */
function pieceProblem(piece: JsonPiece, e: unknown): PieceProblem {
  const message = e instanceof Error ? e.message : String(e);
  const at = /position (\d+)/.exec(message);
  let line = piece.line;
  let column = piece.column;
  if (at) {
    const pos = Math.min(Number(at[1]), piece.text.length);
    for (let i = 0; i < pos; i++) {
      if (piece.text.charCodeAt(i) === 10) {
        line++;
        column = 1;
      } else column++;
    }
  }
  const reason = message.replace(/^JSON\.parse: /, '').replace(/ in JSON at position \d+.*$/, '');
  return {
    message: `${formatJsonPath(piece.path)} is not valid JSON (${reason})`,
    line,
    column,
    jsonPath: formatJsonPath(piece.path),
  };
}

/**
 * Which containers to cut into pieces when a document must be read piece by piece: the root and
 * the members of a root object (so `$.trajectory`, `$.history`, `$.messages`, `$.info` arrive
 * element by element), and in SWE-agent retry files also each attempt's own arrays. Elements of a
 * root array (a legacy message list) stay whole, so a cut message is dropped rather than kept
 * half-read. SWE-agent steps are cut too, only to skip their `query` (see skipTrajectoryValue),
 * and are kept whole (wholeTrajectoryValue).
 */
export const splitTrajectoryDocument: SplitPredicate = (path, kind) =>
  path.length === 0 ||
  (path.length === 1 && typeof path[0] === 'string') ||
  (path[0] === 'attempts' && path.length <= 3) ||
  (kind === 'object' && isSweAgentStep(path));

/**
 * A SWE-agent step's `query` is the whole conversation up to that step, repeated in every step:
 * most of a large .traj, and read by no adapter (the conversation comes from `$.history`,
 * docs/reference/trajectories.md). Its text is scanned for where it ends but never decoded into
 * values, so a damaged query is not reported.
 */
export const skipTrajectoryValue: SkipPredicate = (path) =>
  path.length >= 3 && path[path.length - 1] === 'query' && isSweAgentStep(path.slice(0, -1));

/** Steps are split only to skip a member: attach them when complete (see JsonAssembler). */
export const wholeTrajectoryValue = (path: readonly JsonPathKey[]): boolean => isSweAgentStep(path);

/** `$.trajectory[n]`, or `$.attempts[i].trajectory[n]` in a retry file. */
function isSweAgentStep(path: readonly JsonPathKey[]): boolean {
  if (path.length === 2) return path[0] === 'trajectory' && typeof path[1] === 'number';
  return path.length === 4 && path[0] === 'attempts' && path[2] === 'trajectory' && typeof path[3] === 'number';
}
