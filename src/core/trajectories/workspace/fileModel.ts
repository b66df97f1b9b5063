/**
 * One file of the workspace as a trajectory reveals it: what is known of the original (base)
 * file, and the current file as a piece table over it. Lines the agent never saw stay unknown
 * but keep their place, so an `edit 287:296` on a file seen only around those lines still lands
 * on the right base lines, and a later view anywhere fills in base text retroactively.
 *
 * Nothing is guessed: a view that contradicts what the model holds, or a command whose effect
 * cannot be followed, "detaches" the file (its diff against base is no longer derivable) and the
 * reason is kept.
 */

export type Segment =
  /** Base lines from..to (inclusive) unchanged; to = null means "to the end of the base file". */
  | { kind: 'base'; from: number; to: number | null }
  /** Lines whose text is known (written by the agent, or seen after a detach). */
  | { kind: 'text'; lines: readonly string[] }
  /** Lines of unknown text and origin (after a change we could not follow). */
  | { kind: 'unknown'; count: number | null };

export interface BaseKnowledge {
  lines: Map<number, string>;
  total: number | null;
  exists: boolean | null;
  endsWithNewline: boolean | null;
}

export interface ViewOptions {
  totalLines?: number;
  wholeFile?: boolean;
  endsWithNewline?: boolean;
}

interface State {
  segments: Segment[];
  exists: boolean | null;
  endsWithNewline: boolean | null;
  detached: string | null;
}

export function emptyBase(): BaseKnowledge {
  return { lines: new Map(), total: null, exists: null, endsWithNewline: null };
}

export function copyBase(base: BaseKnowledge): BaseKnowledge {
  return { lines: new Map(base.lines), total: base.total, exists: base.exists, endsWithNewline: base.endsWithNewline };
}

/** Base knowledge from the full original text (a caller-supplied base file). */
export function baseFromText(text: string | null): BaseKnowledge {
  if (text === null) return { lines: new Map(), total: 0, exists: false, endsWithNewline: true };
  const endsWithNewline = text === '' || text.endsWith('\n');
  const lines = text === '' ? [] : (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  return { lines: new Map(lines.map((l, i) => [i + 1, l])), total: lines.length, exists: true, endsWithNewline };
}

export class FileModel {
  segments: Segment[];
  exists: boolean | null;
  endsWithNewline: boolean | null;
  detached: string | null = null;
  /** Bumped whenever the file or what is known of its base changes (callers cache diffs by it). */
  version = 0;
  private readonly undoStack: State[] = [];

  constructor(
    readonly path: string,
    readonly base: BaseKnowledge = emptyBase(),
  ) {
    this.exists = base.exists;
    this.endsWithNewline = base.endsWithNewline;
    this.segments = base.exists === false ? [] : [{ kind: 'base', from: 1, to: base.total }];
    if (base.total === 0) this.segments = [];
  }

  /** Current number of lines, or null while part of the file has unknown length. */
  get totalLines(): number | null {
    let n = 0;
    for (const s of this.segments) {
      const len = segLength(s);
      if (len === null) return null;
      n += len;
    }
    return n;
  }

  // ---- reading -----------------------------------------------------------------------------

  /** Known runs of the current file: consecutive lines whose text is known. */
  knownRuns(): { startLine: number; lines: string[] }[] {
    const runs: { startLine: number; lines: string[] }[] = [];
    let cur: { startLine: number; lines: string[] } | null = null;
    let line = 1;
    const push = (text: string | undefined) => {
      if (text === undefined) cur = null;
      else {
        if (!cur) runs.push((cur = { startLine: line, lines: [] }));
        cur.lines.push(text);
      }
      line++;
    };
    for (const s of this.segments) {
      if (s.kind === 'text') for (const t of s.lines) push(t);
      else if (s.kind === 'base') {
        const to = s.to ?? maxKey(this.base.lines);
        for (let b = s.from; b <= to; b++) push(this.base.lines.get(b));
        if (s.to === null) cur = null;
      } else {
        if (s.count === null) break;
        for (let k = 0; k < s.count; k++) push(undefined);
      }
    }
    return runs;
  }

  /** The whole current text when every line is known. */
  fullText(): string | null {
    if (this.exists === false) return null;
    const total = this.totalLines;
    if (total === null) return null;
    const runs = this.knownRuns();
    if (total === 0) return '';
    if (runs.length !== 1 || runs[0].startLine !== 1 || runs[0].lines.length !== total) return null;
    return runs[0].lines.join('\n') + (this.endsWithNewline === false ? '' : '\n');
  }

  // ---- operations (each returns a reason when it could not be followed) -----------------------

  /** A view of current lines; contradictions detach the file. */
  observe(startLine: number, lines: readonly string[], options: ViewOptions = {}): string | null {
    if (this.exists === false) {
      // the file shows up again after we thought it gone: something we did not follow
      this.detach('it reappeared after being removed');
    }
    this.exists = true;
    const total = options.wholeFile ? lines.length : options.totalLines;
    let conflict = total !== undefined ? this.learnTotal(total) : null;
    if (!conflict) conflict = this.checkLines(startLine, lines);
    if (conflict) {
      this.detach(conflict);
      if (total !== undefined) this.learnTotal(total);
      this.checkLines(startLine, lines);
    }
    if (options.wholeFile && options.endsWithNewline !== undefined) {
      if (this.endsWithNewline !== options.endsWithNewline) this.version++;
      this.endsWithNewline = options.endsWithNewline;
      const last = this.segments.at(-1);
      if (last?.kind === 'base' && (last.to === null || last.to === this.base.total))
        this.base.endsWithNewline = options.endsWithNewline;
    }
    return conflict;
  }

  /** Replace current lines start..end (inclusive; end = start - 1 inserts before start). */
  replaceLines(start: number, end: number, lines: readonly string[]): string | null {
    if (this.exists === false) return `lines ${start}-${end} edited in a file that does not exist`;
    this.remember();
    const total = this.totalLines;
    if (total !== null && start > total + 1) return `edit at line ${start} is past the end (${total} lines)`;
    const last = Math.min(end, total ?? end);
    const j = this.splitAt(last + 1);
    const i = this.splitAt(start);
    if (i < 0 || j < 0) return `edit at lines ${start}-${end} is past what is known of the file`;
    const jj = this.splitAt(last + 1);
    this.segments.splice(i, jj - i, { kind: 'text', lines: [...lines] });
    this.exists = true;
    return null;
  }

  /** str_replace: find `oldStr` in what is known; fall back to the tool's post-edit snippet. */
  strReplace(oldStr: string, newStr: string, snippet?: { startLine: number; lines: readonly string[] }): string | null {
    if (oldStr === '') return 'str_replace with an empty old_str';
    const hit = this.findOnce(oldStr);
    if (hit === 'many') return 'old_str occurs more than once in what was seen of the file';
    if (hit) {
      const prefix = hit.first.slice(0, hit.col);
      const suffix = hit.last.slice(hit.endCol);
      return this.replaceLines(hit.line, hit.endLine, (prefix + newStr + suffix).split('\n'));
    }
    if (!snippet || newStr === '') return 'old_str was never seen, so its place in the file is unknown';
    const joined = snippet.lines.join('\n');
    const at = joined.indexOf(newStr);
    if (at < 0 || joined.indexOf(newStr, at + 1) >= 0)
      return 'old_str was never seen and new_str is not unique in the snippet';
    const first = countNl(joined, 0, at);
    const lineStart = joined.lastIndexOf('\n', at - 1) + 1;
    const prefix = joined.slice(lineStart, at);
    const endAt = at + newStr.length;
    const lineEnd = joined.indexOf('\n', endAt);
    const suffix = joined.slice(endAt, lineEnd < 0 ? joined.length : lineEnd);
    const oldLines = (prefix + oldStr + suffix).split('\n');
    const startLine = snippet.startLine + first;
    const seen = this.observe(startLine, oldLines);
    if (seen) return seen;
    return this.replaceLines(startLine, startLine + oldLines.length - 1, (prefix + newStr + suffix).split('\n'));
  }

  /**
   * Where `text` occurs in the known lines, if exactly once. Matching runs line by line (a
   * multi-line text must end one line, fill the next ones and start the last), so no joined copy
   * of the file is built for every edit.
   */
  private findOnce(
    text: string,
  ): { line: number; col: number; endLine: number; endCol: number; first: string; last: string } | 'many' | null {
    const lines = this.lineTexts();
    const parts = text.split('\n');
    let hit: { line: number; col: number; endLine: number; endCol: number; first: string; last: string } | null = null;
    if (parts.length === 1) {
      for (let i = 0; i < lines.length; i++) {
        const t = lines[i];
        if (t === undefined) continue;
        for (let at = t.indexOf(text); at >= 0; at = t.indexOf(text, at + 1)) {
          if (hit) return 'many';
          hit = { line: i + 1, col: at, endLine: i + 1, endCol: at + text.length, first: t, last: t };
        }
      }
      return hit;
    }
    const head = parts[0];
    const tail = parts[parts.length - 1];
    for (let i = 0; i + parts.length <= lines.length; i++) {
      const t = lines[i];
      if (t === undefined || !t.endsWith(head)) continue;
      let k = 1;
      while (k < parts.length - 1 && lines[i + k] === parts[k]) k++;
      if (k < parts.length - 1) continue;
      const end = lines[i + parts.length - 1];
      if (end === undefined || !end.startsWith(tail)) continue;
      if (hit) return 'many';
      hit = {
        line: i + 1,
        col: t.length - head.length,
        endLine: i + parts.length,
        endCol: tail.length,
        first: t,
        last: end,
      };
    }
    return hit;
  }

  /** The current lines' text (undefined where unknown), up to the last line that is known. */
  private lineTexts(): (string | undefined)[] {
    const out: (string | undefined)[] = [];
    for (const s of this.segments) {
      if (s.kind === 'text') for (const t of s.lines) out.push(t);
      else if (s.kind === 'base') {
        const to = s.to ?? maxKey(this.base.lines);
        for (let b = s.from; b <= to; b++) out.push(this.base.lines.get(b));
      } else if (s.count === null) break;
      else for (let k = 0; k < s.count; k++) out.push(undefined);
    }
    return out;
  }

  insert(afterLine: number, text: string): string | null {
    return this.replaceLines(afterLine + 1, afterLine, text.split('\n'));
  }

  /** The whole file written. `created`: true = it did not exist before, null = unknown. */
  write(content: string, created: boolean | null): void {
    this.remember();
    if (created === true && this.base.exists === null && this.segments.every((s) => s.kind === 'base')) {
      this.base.exists = false;
      this.base.total = 0;
    }
    const endsWithNewline = content === '' || content.endsWith('\n');
    const lines = content === '' ? [] : (endsWithNewline ? content.slice(0, -1) : content).split('\n');
    this.segments = lines.length ? [{ kind: 'text', lines }] : [];
    this.exists = true;
    this.endsWithNewline = endsWithNewline;
    this.detached = null;
  }

  /** Apply a per-line substitution over a range (sed); needs every line in the range known. */
  substitute(range: { start: number; end: number | null } | null, apply: (line: string) => string): string | null {
    const total = this.totalLines;
    if (total === null) return 'sed ran over lines never seen';
    let start = range ? range.start : 1;
    let end = range ? (range.end ?? total) : total;
    if (start === -1) start = end = total;
    end = Math.min(end, total);
    const runs = this.knownRuns();
    const text = new Map<number, string>();
    for (const r of runs) r.lines.forEach((l, k) => text.set(r.startLine + k, l));
    for (let n = start; n <= end; n++) if (!text.has(n)) return `sed ran over line ${n}, which was never seen`;
    for (let n = end; n >= start; n--) {
      const before = text.get(n) as string;
      const after = apply(before);
      if (after !== before) this.replaceLines(n, n, after.split('\n'));
    }
    return null;
  }

  delete(): void {
    this.remember();
    this.segments = [];
    this.exists = false;
    this.detached = null;
  }

  undo(): string | null {
    const prev = this.undoStack.pop();
    if (!prev) return 'undo with no earlier edit to undo';
    Object.assign(this, prev);
    this.version++;
    return null;
  }

  /** The file changed in a way we cannot follow: its content is unknown from here on. */
  detach(reason: string): void {
    this.version++;
    this.detached = reason;
    this.segments = [{ kind: 'unknown', count: null }];
    this.endsWithNewline = null;
  }

  // ---- internals ---------------------------------------------------------------------------

  private remember(): void {
    this.version++;
    this.undoStack.push({
      segments: this.segments.slice(),
      exists: this.exists,
      endsWithNewline: this.endsWithNewline,
      detached: this.detached,
    });
  }

  /** Fix the length of the open-ended tail from a known total; a mismatch is a conflict. */
  private learnTotal(total: number): string | null {
    let known = 0;
    let open = -1;
    this.segments.forEach((s, k) => {
      const len = segLength(s);
      if (len === null) open = k;
      else known += len;
    });
    if (open < 0) return known === total ? null : `the file has ${total} lines where ${known} were expected`;
    const len = total - known;
    if (len < 0) return `the file has ${total} lines, fewer than the ${known} already accounted for`;
    this.version++;
    const s = this.segments[open];
    if (s.kind === 'base') {
      const to = s.from + len - 1;
      if (this.base.total !== null && this.base.total !== to)
        return `the file has ${total} lines where ${known + this.base.total - s.from + 1} were expected`;
      this.base.total = to;
      this.base.exists = true;
      if (len === 0) this.segments.splice(open, 1);
      else this.segments[open] = { kind: 'base', from: s.from, to };
    } else if (s.kind === 'unknown') {
      if (len === 0) this.segments.splice(open, 1);
      else this.segments[open] = { kind: 'unknown', count: len };
    }
    return null;
  }

  /** Compare shown lines with the model, recording base text and filling unknown lines. */
  private checkLines(startLine: number, lines: readonly string[]): string | null {
    let line = 1;
    let k = 0; // index into lines
    const total = this.totalLines;
    if (total !== null && lines.length && startLine + lines.length - 1 > total) {
      return `a view shows line ${startLine + lines.length - 1} of a file with ${total} lines`;
    }
    const fills: { start: number; lines: string[] }[] = [];
    for (const s of this.segments) {
      const len = segLength(s) ?? Infinity;
      const segEnd = line + len - 1;
      while (k < lines.length && startLine + k <= segEnd) {
        const n = startLine + k;
        if (n >= line) {
          const off = n - line;
          const shown = lines[k];
          if (s.kind === 'base') {
            const b = s.from + off;
            const knownText = this.base.lines.get(b);
            this.base.exists = true;
            if (knownText === undefined) {
              this.base.lines.set(b, shown);
              this.version++;
            } else if (!sameLine(knownText, shown))
              return `line ${n} shows text that differs from what the trajectory implies`;
          } else if (s.kind === 'text') {
            if (!sameLine(s.lines[off], shown))
              return `line ${n} shows text that differs from what the trajectory implies`;
          } else {
            const last = fills.at(-1);
            if (last && last.start + last.lines.length === n) last.lines.push(shown);
            else fills.push({ start: n, lines: [shown] });
          }
        }
        k++;
      }
      line = segEnd + 1;
      if (k >= lines.length) break;
    }
    for (const f of fills) this.fillUnknown(f.start, f.lines);
    return null;
  }

  private fillUnknown(start: number, lines: string[]): void {
    const j = this.splitAt(start + lines.length);
    const i = this.splitAt(start);
    if (i < 0 || j < 0) return;
    const jj = this.splitAt(start + lines.length);
    this.segments.splice(i, jj - i, { kind: 'text', lines });
  }

  /** Index of the segment that starts at current line `line`, splitting one if needed; -1 past the end. */
  private splitAt(line: number): number {
    let pos = 1;
    for (let i = 0; i < this.segments.length; i++) {
      const s = this.segments[i];
      if (line === pos) return i;
      const len = segLength(s);
      if (len === null || line < pos + len) {
        const off = line - pos;
        const [a, b] = splitSegment(s, off);
        this.segments.splice(i, 1, a, b);
        return i + 1;
      }
      pos += len;
    }
    return line === pos ? this.segments.length : -1;
  }
}

function splitSegment(s: Segment, off: number): [Segment, Segment] {
  if (s.kind === 'base')
    return [
      { kind: 'base', from: s.from, to: s.from + off - 1 },
      { kind: 'base', from: s.from + off, to: s.to },
    ];
  if (s.kind === 'text')
    return [
      { kind: 'text', lines: s.lines.slice(0, off) },
      { kind: 'text', lines: s.lines.slice(off) },
    ];
  return [
    { kind: 'unknown', count: off },
    { kind: 'unknown', count: s.count === null ? null : s.count - off },
  ];
}

export function segLength(s: Segment): number | null {
  if (s.kind === 'text') return s.lines.length;
  if (s.kind === 'base') return s.to === null ? null : s.to - s.from + 1;
  return s.count;
}

/** Editors print tabs expanded to spaces; a line that only differs that way is the same line. */
function sameLine(known: string, shown: string): boolean {
  if (known === shown || known.trimEnd() === shown.trimEnd()) return true;
  return known.includes('\t') && expandTabs(known).trimEnd() === shown.trimEnd();
}

function expandTabs(s: string): string {
  let out = '';
  for (const c of s) out += c === '\t' ? ' '.repeat(8 - (out.length % 8)) : c;
  return out;
}

function countNl(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

function maxKey(map: Map<number, string>): number {
  let m = 0;
  for (const k of map.keys()) if (k > m) m = k;
  return m;
}
