import { stripBom } from '../../core/util/bom';

/**
 * Cuts a byte stream into lines, keeping each line's number and byte offset, without decoding or
 * copying the whole file: only complete lines are decoded, a line still being written stays
 * pending (a growing output.jsonl), and a multi-byte character split across chunks is safe
 * because lines are cut on the newline byte.
 */
export interface JsonlLine {
  text: string;
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the file. */
  byteOffset: number;
}

export class JsonlLineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Byte offset just after the last complete line (where a reader resumes). */
  completeBytes: number;
  /** Lines completed so far (blank ones included). */
  lines: number;

  constructor(startOffset = 0, startLine = 0) {
    this.completeBytes = startOffset;
    this.lines = startLine;
  }

  push(chunk: Buffer, onLine: (line: JsonlLine) => void): void {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, nl);
      const whole = this.pending.length
        ? Buffer.concat([...this.pending, piece], this.pendingBytes + piece.length)
        : piece;
      this.pending = [];
      this.pendingBytes = 0;
      this.lines++;
      const byteOffset = this.completeBytes;
      this.completeBytes += whole.length + 1;
      let text = whole.toString('utf8');
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (byteOffset === 0) text = stripBom(text);
      if (text.trim() !== '') onLine({ text, line: this.lines, byteOffset });
      from = nl + 1;
    }
    if (from < chunk.length) {
      // copy: the stream may reuse the chunk's memory
      const rest = Buffer.from(chunk.subarray(from));
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
  }

  /** The unfinished last line, if any (a file that does not end with a newline). */
  tail(): JsonlLine | null {
    if (!this.pendingBytes) return null;
    let text = Buffer.concat(this.pending, this.pendingBytes).toString('utf8');
    if (this.completeBytes === 0) text = stripBom(text);
    if (text.trim() === '') return null;
    return { text, line: this.lines + 1, byteOffset: this.completeBytes };
  }
}
