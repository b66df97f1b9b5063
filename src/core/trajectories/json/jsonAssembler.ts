import {
  formatJsonPath,
  type ContainerKind,
  type JsonPathKey,
  type JsonPiece,
  type JsonSplitSink,
  type SplitPredicate,
} from './jsonSplitter';

export interface PieceProblem {
  message: string;
  line: number;
  column: number;
  jsonPath: string;
}

/**
 * Rebuilds the document from a JsonSplitter's pieces: containers are attached to their parent as
 * soon as they open, so a document cut short keeps every piece that completed (e.g. the first 40
 * elements of `$.trajectory`) and simply lacks the rest. A piece that is not valid JSON is left
 * out and reported with its position.
 */
export class JsonAssembler implements JsonSplitSink {
  root: unknown = undefined;
  readonly problems: PieceProblem[] = [];
  private readonly stack: unknown[] = [];

  constructor(private readonly onPiece?: (path: JsonPathKey[], value: unknown) => void) {}

  open(path: JsonPathKey[], kind: ContainerKind): void {
    const container = kind === 'object' ? {} : [];
    this.attach(path, container);
    this.stack.push(container);
  }

  close(): void {
    this.stack.pop();
  }

  piece(piece: JsonPiece): void {
    let value: unknown;
    try {
      value = JSON.parse(piece.text);
    } catch (e) {
      this.problems.push(pieceProblem(piece, e));
      return;
    }
    this.attach(piece.path, value);
    this.onPiece?.(piece.path, value);
  }

  private attach(path: JsonPathKey[], value: unknown): void {
    const parent = this.stack.at(-1);
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
 * half-read.
 */
export const splitTrajectoryDocument: SplitPredicate = (path) =>
  path.length === 0 ||
  (path.length === 1 && typeof path[0] === 'string') ||
  (path[0] === 'attempts' && path.length <= 3);
