// Where in a chain file each problem of a UserError is, so the Problems panel can point at the
// right line: details read "<file>[:<line>]: <JSON path>: <message>" (schema problems) or
// "<file>: line L, column C: <message>" (syntax). Pure: no 'vscode', unit-tested.
// The ES module build: the UMD one (package main) requires its parts dynamically, which a bundle cannot follow.
import { findNodeAtLocation, parseTree, type Node, type Segment } from 'jsonc-parser/lib/esm/main.js';

export interface ProblemLocation {
  /** The file the detail names (absolute, as the loader was given it). */
  file: string;
  /** 0-based start and end (end on the same line), like vscode.Range. */
  line: number;
  column: number;
  endColumn: number;
  message: string;
}

const WITH_PATH = /^(.+?)(?::(\d+))?: (\$(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*): (.*)$/s;
const WITH_POSITION = /^(.+?)(?::(\d+))?: (?:line (\d+), )?column (\d+): (.*)$/s;

/** "$.bug_fixes[1].order" -> ['bug_fixes', 1, 'order']. */
export function jsonPathSegments(path: string): Segment[] {
  const segments: Segment[] = [];
  const re = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const m of path.slice(1).matchAll(re)) {
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else segments.push(JSON.parse(m[3]) as string);
  }
  return segments;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function positionOf(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, column: offset - starts[lo] };
}

/** The node at `segments`, or the deepest existing ancestor (a missing field points at its object). */
function deepestNode(root: Node, segments: Segment[]): Node {
  for (let n = segments.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, segments.slice(0, n));
    if (!node) continue;
    // A property's value: point at its key, which is where people look.
    const key = n === segments.length && node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    return key ?? node;
  }
  return root;
}

function locateInText(
  text: string,
  segments: Segment[],
  lineOffset: number,
): { line: number; column: number; endColumn: number } {
  const root = parseTree(text);
  if (!root) return { line: lineOffset, column: 0, endColumn: 1 };
  const node = deepestNode(root, segments);
  const starts = lineStarts(text);
  const start = positionOf(starts, node.offset);
  const end = positionOf(starts, node.offset + node.length);
  const lineEnd = (starts[start.line + 1] ?? text.length + 1) - 1 - starts[start.line];
  return {
    line: start.line + lineOffset,
    column: start.column,
    endColumn: end.line === start.line ? end.column : Math.max(start.column + 1, lineEnd),
  };
}

/**
 * Locates each detail line in `text` (the file's content). Lines that name another file, or no
 * position at all, land on the first line with their text, so nothing is dropped.
 */
export function locateProblems(
  file: string,
  text: string,
  details: readonly string[],
  fallbackMessage: string,
): ProblemLocation[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split('\n');
  const out: ProblemLocation[] = [];
  for (const detail of details) {
    const withPath = WITH_PATH.exec(detail);
    if (withPath && withPath[1] === file) {
      const [, , lineText, path, message] = withPath;
      const segments = jsonPathSegments(path);
      const at =
        lineText === undefined
          ? locateInText(body, segments, 0)
          : locateInText(lines[Number(lineText) - 1] ?? '', segments, Number(lineText) - 1);
      out.push({ file, ...at, message: `${path}: ${message}` });
      continue;
    }
    const withPosition = WITH_POSITION.exec(detail);
    if (withPosition && withPosition[1] === file) {
      const [, , recordLine, line, column, message] = withPosition;
      const lineNo = Number(recordLine ?? line ?? '1') - 1;
      const col = Math.max(0, Number(column) - 1);
      out.push({ file, line: lineNo, column: col, endColumn: col + 1, message });
      continue;
    }
    const lineOnly = /^(.+?):(\d+): (.*)$/s.exec(detail);
    if (lineOnly && lineOnly[1] === file) {
      const lineNo = Number(lineOnly[2]) - 1;
      out.push({
        file,
        line: lineNo,
        column: 0,
        endColumn: Math.max(1, (lines[lineNo] ?? '').length),
        message: lineOnly[3],
      });
      continue;
    }
    out.push({
      file,
      line: 0,
      column: 0,
      endColumn: Math.max(1, (lines[0] ?? '').length),
      message: detail.startsWith(`${file}: `) ? detail.slice(file.length + 2) : detail,
    });
  }
  if (out.length === 0)
    out.push({ file, line: 0, column: 0, endColumn: Math.max(1, (lines[0] ?? '').length), message: fallbackMessage });
  return out;
}
