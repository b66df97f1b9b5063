/**
 * A streaming structural scanner for one JSON document. It does not build values itself: it cuts
 * the document into pieces (the values of containers the caller asked to split, e.g. every element
 * of `$.trajectory`) and hands each piece's text to the sink, which JSON.parses it natively.
 *
 * Why: a 100 MB .traj must not be parsed in one go. Pieces arrive while the file is still being
 * read (first steps early), each piece is parsed by V8's fast JSON.parse, and when the input ends
 * early (a running agent, a cut download) every piece completed before the cut has already been
 * delivered, so nothing that was readable is lost.
 */

export type JsonPathKey = string | number;
export type ContainerKind = 'object' | 'array';

export interface JsonPiece {
  path: JsonPathKey[];
  text: string;
  /** Position of the piece's first character (1-based line/column, 0-based char offset). */
  line: number;
  column: number;
  offset: number;
}

export interface SplitPosition {
  line: number;
  column: number;
  offset: number;
  jsonPath: string;
}

export interface SplitProblem extends SplitPosition {
  message: string;
}

export interface JsonSplitSink {
  piece(piece: JsonPiece): void;
  open(path: JsonPathKey[], kind: ContainerKind): void;
  close(path: JsonPathKey[], kind: ContainerKind): void;
}

export type SplitPredicate = (path: readonly JsonPathKey[], kind: ContainerKind) => boolean;

/** Values nobody reads (SWE-agent's per-step query history): scanned for their end, never delivered. */
export type SkipPredicate = (path: readonly JsonPathKey[]) => boolean;

type FrameState = 'keyOrEnd' | 'key' | 'colon' | 'value' | 'valueOrEnd' | 'commaOrEnd';

interface Frame {
  kind: ContainerKind;
  path: JsonPathKey[];
  index: number;
  key: string | null;
  state: FrameState;
}

/** `skip`: the value is scanned to find where it ends, but its text is neither kept nor parsed. */
type Capture =
  | { type: 'container'; depth: number; inString: boolean; skip: boolean }
  | { type: 'string'; skip: boolean }
  | { type: 'bare'; skip: boolean }
  | { type: 'key'; skip: false };

const WS_SPACE = 32;
const WS_TAB = 9;
const WS_CR = 13;
const NL = 10;
const QUOTE = 34;
const BACKSLASH = 92;

export function formatJsonPath(path: readonly JsonPathKey[]): string {
  let out = '$';
  for (const k of path) {
    if (typeof k === 'number') out += `[${k}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) out += `.${k}`;
    else out += `[${JSON.stringify(k)}]`;
  }
  return out;
}

export class JsonSplitter {
  private stack: Frame[] = [];
  private rootState: 'value' | 'done' = 'value';
  private capture: Capture | null = null;
  private captureParts: string[] = [];
  private captureStart = { line: 1, column: 1, offset: 0 };
  private capturePath: JsonPathKey[] = [];
  /** Backslashes at the end of the previous chunk while inside a string (escape state). */
  private carryBackslashes = 0;
  private base = 0;
  private line = 1;
  private lineStart = 0;
  private failure: SplitProblem | null = null;

  constructor(
    private readonly shouldSplit: SplitPredicate,
    private readonly sink: JsonSplitSink,
    private readonly shouldSkip: SkipPredicate = () => false,
  ) {}

  get problem(): SplitProblem | null {
    return this.failure;
  }

  /** True once the root value closed (trailing whitespace may still follow). */
  get done(): boolean {
    return this.rootState === 'done';
  }

  write(chunk: string): void {
    if (this.failure) return;
    const n = chunk.length;
    let i = 0;
    let segStart = 0;
    while (i < n) {
      const cap = this.capture;
      if (cap) {
        if (cap.type === 'string' || cap.type === 'key' || (cap.type === 'container' && cap.inString)) {
          const close = this.findStringEnd(chunk, i);
          if (close < 0) {
            i = n;
            break;
          }
          i = close + 1;
          if (cap.type === 'container') {
            cap.inString = false;
            continue;
          }
          if (!cap.skip) this.captureParts.push(chunk.slice(segStart, i));
          if (cap.type === 'key') this.finishKey();
          else this.finishPiece();
          continue;
        }
        if (cap.type === 'bare') {
          while (i < n && !isBareEnd(chunk.charCodeAt(i))) i++;
          if (i === n) break;
          if (!cap.skip) this.captureParts.push(chunk.slice(segStart, i));
          this.finishPiece();
          continue;
        }
        // container capture outside strings: walk to the next structural character
        while (i < n) {
          const c = chunk.charCodeAt(i);
          if (c === QUOTE) {
            cap.inString = true;
            this.carryBackslashes = 0;
            i++;
            break;
          }
          if (c === 123 || c === 91) cap.depth++;
          else if (c === 125 || c === 93) {
            cap.depth--;
            if (cap.depth === 0) {
              i++;
              if (!cap.skip) this.captureParts.push(chunk.slice(segStart, i));
              this.finishPiece();
              break;
            }
          } else if (c === NL) {
            this.line++;
            this.lineStart = this.base + i + 1;
          }
          i++;
        }
        continue;
      }
      // split level: tokens between pieces
      const c = chunk.charCodeAt(i);
      if (c === WS_SPACE || c === WS_TAB || c === WS_CR) {
        i++;
        continue;
      }
      if (c === NL) {
        this.line++;
        this.lineStart = this.base + i + 1;
        i++;
        continue;
      }
      const consumed = this.token(chunk, i, c);
      if (this.failure) return;
      if (this.capture) segStart = i;
      i += consumed;
    }
    if (this.capture && i >= n) {
      if (segStart < n && !this.capture.skip) this.captureParts.push(chunk.slice(segStart));
      if (this.capture.type !== 'bare' && !(this.capture.type === 'container' && !this.capture.inString)) {
        this.carryBackslashes = trailingBackslashes(chunk, segStart, this.carryBackslashes);
      }
    }
    this.base += n;
  }

  /**
   * Call when the input is over. Returns null when the document was complete, else a problem
   * naming where it stopped (everything before that was already delivered).
   */
  end(): SplitProblem | null {
    if (this.failure) return this.failure;
    if (this.capture?.type === 'bare' && (this.captureParts.length > 0 || this.capture.skip)) {
      // a number or literal running to the end of input is complete
      this.finishPiece();
    }
    if (this.rootState === 'done') return null;
    const where = this.capture ? formatJsonPath(this.capturePath) : formatJsonPath(this.stack.at(-1)?.path ?? []);
    const pos = this.position(this.base);
    const what = this.capture ? `inside ${where}` : this.stack.length ? `inside ${where}` : 'before any value';
    this.failure = { ...pos, jsonPath: where, message: `the JSON ends early (${what})` };
    return this.failure;
  }

  private position(offset: number): { line: number; column: number; offset: number } {
    return { line: this.line, column: offset - this.lineStart + 1, offset };
  }

  private fail(chunkIndex: number, message: string): void {
    const pos = this.position(this.base + chunkIndex);
    const path = this.stack.at(-1)?.path ?? [];
    this.failure = { ...pos, jsonPath: formatJsonPath(path), message };
  }

  /** Index of the closing quote of the string being scanned, or -1 if it runs past the chunk. */
  private findStringEnd(chunk: string, from: number): number {
    let q = chunk.indexOf('"', from);
    while (q >= 0) {
      let k = q - 1;
      let slashes = 0;
      while (k >= from && chunk.charCodeAt(k) === BACKSLASH) {
        slashes++;
        k--;
      }
      if (k < from && from === 0) slashes += this.carryBackslashes;
      if (slashes % 2 === 0) {
        this.carryBackslashes = 0;
        return q;
      }
      q = chunk.indexOf('"', q + 1);
    }
    return -1;
  }

  private token(chunk: string, i: number, c: number): number {
    const frame = this.stack.at(-1);
    if (!frame) {
      if (this.rootState === 'done') {
        this.fail(i, `unexpected '${chunk[i]}' after the end of the JSON document`);
        return 1;
      }
      return this.startValue(chunk, i, c, []);
    }
    switch (frame.state) {
      case 'keyOrEnd':
      case 'key':
        if (c === QUOTE) {
          this.beginCapture({ type: 'key', skip: false }, i, frame.path);
          this.carryBackslashes = 0;
          return 1;
        }
        if (c === 125 && frame.state === 'keyOrEnd') return this.closeFrame();
        this.fail(i, `expected a property name in ${formatJsonPath(frame.path)}, found '${chunk[i]}'`);
        return 1;
      case 'colon':
        if (c === 58) {
          frame.state = 'value';
          return 1;
        }
        this.fail(i, `expected ':' after property "${frame.key}" in ${formatJsonPath(frame.path)}`);
        return 1;
      case 'value':
      case 'valueOrEnd':
        if (c === 93 && frame.state === 'valueOrEnd' && frame.kind === 'array') return this.closeFrame();
        return this.startValue(chunk, i, c, [
          ...frame.path,
          frame.kind === 'array' ? frame.index : (frame.key as string),
        ]);
      case 'commaOrEnd':
        if (c === 44) {
          frame.state = frame.kind === 'object' ? 'key' : 'value';
          return 1;
        }
        if ((c === 125 && frame.kind === 'object') || (c === 93 && frame.kind === 'array')) return this.closeFrame();
        this.fail(
          i,
          `expected ',' or '${frame.kind === 'object' ? '}' : ']'}' in ${formatJsonPath(frame.path)}, found '${chunk[i]}'`,
        );
        return 1;
    }
  }

  private startValue(chunk: string, i: number, c: number, path: JsonPathKey[]): number {
    const skip = this.shouldSkip(path);
    if (c === 123 || c === 91) {
      const kind: ContainerKind = c === 123 ? 'object' : 'array';
      if (!skip && this.shouldSplit(path, kind)) {
        this.stack.push({ kind, path, index: 0, key: null, state: kind === 'object' ? 'keyOrEnd' : 'valueOrEnd' });
        this.sink.open(path, kind);
        return 1;
      }
      this.beginCapture({ type: 'container', depth: 1, inString: false, skip }, i, path);
      return 1;
    }
    if (c === QUOTE) {
      this.beginCapture({ type: 'string', skip }, i, path);
      this.carryBackslashes = 0;
      return 1;
    }
    if (c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110) {
      this.beginCapture({ type: 'bare', skip }, i, path);
      return 1;
    }
    this.fail(i, `unexpected '${chunk[i]}' where a value should start (${formatJsonPath(path)})`);
    return 1;
  }

  private beginCapture(capture: Capture, i: number, path: JsonPathKey[]): void {
    this.capture = capture;
    this.captureParts = [];
    this.capturePath = path;
    this.captureStart = this.position(this.base + i);
  }

  private finishKey(): void {
    const raw = this.captureParts.join('');
    this.capture = null;
    this.captureParts = [];
    const frame = this.stack.at(-1) as Frame;
    try {
      frame.key = JSON.parse(raw) as string;
    } catch {
      frame.key = raw.slice(1, -1);
    }
    frame.state = 'colon';
  }

  private finishPiece(): void {
    const skipped = this.capture?.skip === true;
    const text = this.captureParts.length === 1 ? this.captureParts[0] : this.captureParts.join('');
    const path = this.capturePath;
    const start = this.captureStart;
    this.capture = null;
    this.captureParts = [];
    if (!skipped) this.sink.piece({ path, text, ...start });
    this.afterValue();
  }

  private closeFrame(): number {
    const frame = this.stack.pop() as Frame;
    this.sink.close(frame.path, frame.kind);
    this.afterValue();
    return 1;
  }

  private afterValue(): void {
    const parent = this.stack.at(-1);
    if (!parent) {
      this.rootState = 'done';
      return;
    }
    if (parent.kind === 'array') parent.index++;
    parent.state = 'commaOrEnd';
  }
}

function isBareEnd(c: number): boolean {
  return c === 44 || c === 125 || c === 93 || c === WS_SPACE || c === NL || c === WS_TAB || c === WS_CR;
}

function trailingBackslashes(chunk: string, from: number, carry: number): number {
  let k = chunk.length - 1;
  let count = 0;
  while (k >= from && chunk.charCodeAt(k) === BACKSLASH) {
    count++;
    k--;
  }
  return k < from && from === 0 ? count + carry : count;
}
