import type { LineEdit } from '../patch/apply';
import type { SyntaxEdit, SyntaxPoint } from './syntax';

/** Index of the first character of each line: 0 and every index after a '\n'. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Index where 0-based `line` starts; the end of the text for lines past the last one. */
const offsetOf = (starts: readonly number[], line: number, length: number) =>
  line < starts.length ? starts[line] : length;

/** Row/column of an index (binary search over the line starts). */
export function pointOf(starts: readonly number[], index: number): SyntaxPoint {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return { row: lo, column: index - starts[lo] };
}

/** Where `start` ends up after the text `from..to` of `text` (rows by '\n', columns in UTF-16 units). */
function advance(start: SyntaxPoint, text: string, from: number, to: number): SyntaxPoint {
  let row = start.row;
  let lineStart = -1;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return lineStart < 0 ? { row, column: start.column + (to - from) } : { row, column: to - lineStart };
}

/**
 * The line edits of a patch as a parser's text edits, in the order they are to be applied: each
 * one is expressed on the text as it reads after the edits before it (so on the post-image up to
 * its start, on the pre-image after its end). That is how tree-sitter takes a sequence of edits.
 */
export function syntaxEdits(pre: string, post: string, edits: readonly LineEdit[]): SyntaxEdit[] {
  if (edits.length === 0) return [];
  const preStarts = lineStarts(pre);
  const postStarts = lineStarts(post);
  return edits.map((e) => {
    const oldFrom = offsetOf(preStarts, e.oldStart, pre.length);
    const oldTo = offsetOf(preStarts, e.oldStart + e.oldCount, pre.length);
    const newFrom = offsetOf(postStarts, e.newStart, post.length);
    const newTo = offsetOf(postStarts, e.newStart + e.newCount, post.length);
    // Everything before this edit already reads as the post-image.
    const startPosition = pointOf(postStarts, newFrom);
    return {
      startIndex: newFrom,
      oldEndIndex: newFrom + (oldTo - oldFrom),
      newEndIndex: newTo,
      startPosition,
      oldEndPosition: advance(startPosition, pre, oldFrom, oldTo),
      newEndPosition: advance(startPosition, post, newFrom, newTo),
    };
  });
}
