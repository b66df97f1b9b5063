import { UserError } from '../util/errors';
import { parseGitHeaderNames, readName, stripPrefix } from './paths';
import type { FileChangeStatus, FilePatch, Hunk, HunkLine, Patch } from './types';

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*?)\r?$/;

/** A patch that cannot be read; the message names the source and the patch line. */
export class PatchParseError extends UserError {
  constructor(
    readonly source: string,
    readonly line: number,
    problem: string,
  ) {
    super(`${source}: patch line ${line}: ${problem}`, 'input');
    this.name = 'PatchParseError';
  }
}

interface Cursor {
  readonly lines: string[];
  i: number;
  readonly source: string;
}

/**
 * Parses a unified diff: `git diff` / `git format-patch` output (renames, copies, modes, binary,
 * quoted names) and plain `diff -u` sections. Text around the file sections (commit messages,
 * `index` lines, signatures) is skipped; a hunk whose body disagrees with its header is an error,
 * because guessing there would map changes to the wrong lines.
 */
export function parsePatch(text: string, source = 'patch'): Patch {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const cur: Cursor = { lines, i: 0, source };
  const files: FilePatch[] = [];
  while (cur.i < lines.length) {
    const line = lines[cur.i];
    if (line.startsWith('diff --git ')) files.push(parseGitSection(cur));
    else if (isPlainHeader(cur)) files.push(parsePlainSection(cur));
    else cur.i++;
  }
  return { files };
}

function isPlainHeader(cur: Cursor): boolean {
  return (
    cur.lines[cur.i].startsWith('--- ') &&
    (cur.lines[cur.i + 1]?.startsWith('+++ ') ?? false) &&
    HUNK_HEADER.test(cur.lines[cur.i + 2] ?? '')
  );
}

function headerValue(line: string, key: string): string | undefined {
  return line.startsWith(key) ? line.slice(key.length).replace(/\r$/, '') : undefined;
}

function parseGitSection(cur: Cursor): FilePatch {
  const start = cur.i;
  const headerNames = parseGitHeaderNames(cur.lines[cur.i].slice('diff --git '.length));
  if (!headerNames)
    throw new PatchParseError(cur.source, start + 1, `cannot read the file names of '${cur.lines[start].trimEnd()}'`);
  cur.i++;
  let oldPath: string | null = stripPrefix(headerNames.a, 'a/');
  let newPath: string | null = stripPrefix(headerNames.b, 'b/');
  let status: FileChangeStatus | undefined;
  let oldMode: string | undefined;
  let newMode: string | undefined;
  let similarity: number | undefined;
  let binary = false;

  for (; cur.i < cur.lines.length; cur.i++) {
    const line = cur.lines[cur.i];
    let v: string | undefined;
    if ((v = headerValue(line, 'old mode ')) !== undefined) oldMode = v;
    else if ((v = headerValue(line, 'new mode ')) !== undefined) newMode = v;
    else if ((v = headerValue(line, 'deleted file mode ')) !== undefined) {
      status = 'deleted';
      oldMode = v;
      newPath = null;
    } else if ((v = headerValue(line, 'new file mode ')) !== undefined) {
      status = 'added';
      newMode = v;
      oldPath = null;
    } else if ((v = headerValue(line, 'rename from ')) !== undefined) {
      status = 'renamed';
      oldPath = readName(v);
    } else if ((v = headerValue(line, 'rename to ')) !== undefined) newPath = readName(v);
    else if ((v = headerValue(line, 'copy from ')) !== undefined) {
      status = 'copied';
      oldPath = readName(v);
    } else if ((v = headerValue(line, 'copy to ')) !== undefined) newPath = readName(v);
    else if ((v = headerValue(line, 'similarity index ')) !== undefined) similarity = parseInt(v, 10);
    else if (line.startsWith('dissimilarity index ') || line.startsWith('index ')) continue;
    else if (line.startsWith('Binary files ')) binary = true;
    else if (line.startsWith('GIT binary patch')) {
      binary = true;
      // The base85 blocks run until the next file section.
      while (cur.i + 1 < cur.lines.length && !cur.lines[cur.i + 1].startsWith('diff --git ')) cur.i++;
    } else break;
  }

  if (cur.lines[cur.i]?.startsWith('--- ') && cur.lines[cur.i + 1]?.startsWith('+++ ')) {
    const a = stripPrefix(readName(cur.lines[cur.i].slice(4)), 'a/');
    const b = stripPrefix(readName(cur.lines[cur.i + 1].slice(4)), 'b/');
    // Renames and copies name their paths exactly in the extended header; keep those.
    if (status !== 'renamed' && status !== 'copied') {
      oldPath = a;
      newPath = b;
    }
    cur.i += 2;
  }
  const hunks = parseHunks(cur);
  if (status === undefined) {
    if (oldPath === null) status = 'added';
    else if (newPath === null) status = 'deleted';
    else if (oldMode !== undefined && newMode !== undefined && hunks.length === 0 && !binary) status = 'mode-change';
    else status = 'modified';
  }
  return { oldPath, newPath, status, binary, oldMode, newMode, similarity, hunks, patchLine: start + 1 };
}

function parsePlainSection(cur: Cursor): FilePatch {
  const start = cur.i;
  const a = stripPrefix(readName(cur.lines[cur.i].slice(4)), 'a/');
  const b = stripPrefix(readName(cur.lines[cur.i + 1].slice(4)), 'b/');
  cur.i += 2;
  const hunks = parseHunks(cur);
  const status: FileChangeStatus = a === null ? 'added' : b === null ? 'deleted' : 'modified';
  // `diff -u x.orig x` names a backup as the old side; the file patched is the new one.
  const oldPath = a !== null && b !== null ? b : a;
  return { oldPath, newPath: b, status, binary: false, hunks, patchLine: start + 1 };
}

function parseHunks(cur: Cursor): Hunk[] {
  const hunks: Hunk[] = [];
  while (cur.i < cur.lines.length && cur.lines[cur.i].startsWith('@@ ')) hunks.push(parseHunk(cur));
  return hunks;
}

function parseHunk(cur: Cursor): Hunk {
  const headerLine = cur.i + 1;
  const m = HUNK_HEADER.exec(cur.lines[cur.i]);
  if (!m) throw new PatchParseError(cur.source, headerLine, `malformed hunk header '${cur.lines[cur.i].trimEnd()}'`);
  const oldStart = Number(m[1]);
  const oldLines = m[2] === undefined ? 1 : Number(m[2]);
  const newStart = Number(m[3]);
  const newLines = m[4] === undefined ? 1 : Number(m[4]);
  cur.i++;

  const lines: HunkLine[] = [];
  let oldNo = oldLines === 0 ? oldStart + 1 : oldStart;
  let newNo = newLines === 0 ? newStart + 1 : newStart;
  let remOld = oldLines;
  let remNew = newLines;
  const markNoNewline = () => {
    const last = lines.pop();
    if (!last)
      throw new PatchParseError(cur.source, cur.i + 1, "'\\ No newline at end of file' before any line of the hunk");
    lines.push({ ...last, noNewlineAtEnd: true });
    cur.i++;
  };

  while (remOld > 0 || remNew > 0) {
    const raw = cur.lines[cur.i];
    if (raw === undefined) {
      throw new PatchParseError(
        cur.source,
        headerLine,
        `hunk ends early: ${remOld} old and ${remNew} new lines missing (truncated patch?)`,
      );
    }
    if (raw.startsWith('\\')) {
      markNoNewline();
      continue;
    }
    const marker = raw === '' || raw === '\r' ? ' ' : raw[0];
    const crlf = raw.endsWith('\r');
    const text = (crlf ? raw.slice(0, -1) : raw).slice(1);
    if (marker === ' ') {
      if (remOld === 0 || remNew === 0) throw mismatch(cur, headerLine);
      lines.push({ kind: 'context', text, crlf, noNewlineAtEnd: false, oldLine: oldNo++, newLine: newNo++ });
      remOld--;
      remNew--;
    } else if (marker === '-') {
      if (remOld === 0) throw mismatch(cur, headerLine);
      lines.push({ kind: 'del', text, crlf, noNewlineAtEnd: false, oldLine: oldNo++ });
      remOld--;
    } else if (marker === '+') {
      if (remNew === 0) throw mismatch(cur, headerLine);
      lines.push({ kind: 'add', text, crlf, noNewlineAtEnd: false, newLine: newNo++ });
      remNew--;
    } else {
      throw new PatchParseError(
        cur.source,
        cur.i + 1,
        `unexpected line inside a hunk (${remOld} old and ${remNew} new lines still expected): '${raw.slice(0, 60)}'`,
      );
    }
    cur.i++;
  }
  if (cur.lines[cur.i]?.startsWith('\\')) markNoNewline();
  return { oldStart, oldLines, newStart, newLines, section: m[5], lines, patchLine: headerLine };
}

function mismatch(cur: Cursor, headerLine: number): PatchParseError {
  return new PatchParseError(
    cur.source,
    cur.i + 1,
    `hunk body does not match the line counts of its header at line ${headerLine}`,
  );
}
