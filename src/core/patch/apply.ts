import { UserError } from '../util/errors';
import { filePath, type FilePatch, type Hunk } from './types';

/** A pre-image that does not match a hunk's context or removed lines. */
export class HunkMismatchError extends UserError {
  constructor(
    readonly path: string,
    readonly hunk: Hunk,
    detail: string,
  ) {
    super(
      `${path}: hunk @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@ (patch line ${hunk.patchLine}) does not apply: ${detail}`,
      'input',
    );
    this.name = 'HunkMismatchError';
  }
}

interface SourceLine {
  text: string;
  /** '\n', '\r\n' or '' (last line without terminator). */
  eol: string;
}

export function splitLines(text: string): SourceLine[] {
  const out: SourceLine[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) {
      out.push({ text: text.slice(start), eol: '' });
      break;
    }
    const cr = nl > start && text[nl - 1] === '\r';
    out.push({ text: text.slice(start, cr ? nl - 1 : nl), eol: cr ? '\r\n' : '\n' });
    start = nl + 1;
  }
  return out;
}

/** How far (in lines) to look around a hunk's stated position, like `git apply` does for shifted hunks. */
const MAX_OFFSET = 1000;

function matchesAt(pre: SourceLine[], at: number, expected: string[]): boolean {
  if (at < 0 || at + expected.length > pre.length) return false;
  for (let k = 0; k < expected.length; k++) if (pre[at + k].text !== expected[k]) return false;
  return true;
}

/**
 * Lines one change replaced, 0-based: `oldCount` lines of the pre-image from `oldStart` became
 * `newCount` lines of the post-image from `newStart`. Context lines are not part of an edit.
 */
export interface LineEdit {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
}

/**
 * The file after the patch, rebuilt from the file before it and the hunks (what symbol mapping
 * parses). Context is matched exactly; a hunk that moved (earlier edits, a slightly different
 * base) is searched for nearby, as `git apply` does, and a mismatch is an error naming the hunk.
 * Line endings of untouched lines are kept; added lines take the patch's.
 */
export function applyFilePatch(preImage: string, file: FilePatch): string {
  return applyFilePatchWithEdits(preImage, file).text;
}

/**
 * applyFilePatch, plus where each run of removed/added lines landed, in order: what an
 * incremental parser needs to reuse the pre-image's syntax tree for the post-image.
 */
export function applyFilePatchWithEdits(preImage: string, file: FilePatch): { text: string; edits: LineEdit[] } {
  const pre = splitLines(preImage);
  if (file.status === 'deleted')
    return { text: '', edits: pre.length > 0 ? [{ oldStart: 0, oldCount: pre.length, newStart: 0, newCount: 0 }] : [] };
  if (file.binary) throw new UserError(`${filePath(file)}: binary change, no text post-image`, 'input');
  const out: string[] = [];
  const edits: LineEdit[] = [];
  let run: { oldStart: number; oldCount: number; newStart: number; newCount: number } | undefined;
  const endRun = () => {
    if (run) edits.push(run);
    run = undefined;
  };
  let next = 0; // first pre-image line (0-based) not yet copied
  let offset = 0;
  for (const hunk of file.hunks) {
    const expected = hunk.lines.filter((l) => l.kind !== 'add').map((l) => l.text);
    const stated = (hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1) + offset;
    let at = -1;
    for (let d = 0; d <= MAX_OFFSET && at < 0; d++) {
      if (stated - d >= next && matchesAt(pre, stated - d, expected)) at = stated - d;
      else if (d > 0 && stated + d >= next && matchesAt(pre, stated + d, expected)) at = stated + d;
    }
    if (at < 0) {
      const got = pre[stated]?.text;
      throw new HunkMismatchError(
        filePath(file),
        hunk,
        got === undefined ? `the file has only ${pre.length} lines` : `line ${stated + 1} reads '${got.slice(0, 60)}'`,
      );
    }
    offset = at - (hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1);
    endRun();
    for (; next < at; next++) out.push(pre[next].text + pre[next].eol);
    for (const l of hunk.lines) {
      if (l.kind === 'context') {
        endRun();
        out.push(pre[next].text + pre[next].eol);
        next++;
        continue;
      }
      run ??= { oldStart: next, oldCount: 0, newStart: out.length, newCount: 0 };
      if (l.kind === 'del') {
        next++;
        run.oldCount++;
      } else {
        out.push(l.text + (l.noNewlineAtEnd ? '' : l.crlf ? '\r\n' : '\n'));
        run.newCount++;
      }
    }
    endRun();
  }
  for (; next < pre.length; next++) out.push(pre[next].text + pre[next].eol);
  return { text: out.join(''), edits };
}
