import type { FilePatch } from './types';

/** One added or removed line with where it sits on both sides (an anchor on the side it is absent from). */
export interface ChangedLine {
  readonly kind: 'add' | 'del';
  readonly text: string;
  /** Pre-image line: the removed line itself, or the line an addition goes before. */
  readonly oldLine: number;
  /** Post-image line: the added line itself, or the line that follows a removal. */
  readonly newLine: number;
}

export function changedLines(file: FilePatch): ChangedLine[] {
  const out: ChangedLine[] = [];
  for (const hunk of file.hunks) {
    let oldCursor = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart;
    let newCursor = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
    // Additions that replace removed lines anchor where the removal started.
    let runOldStart: number | undefined;
    for (const l of hunk.lines) {
      if (l.kind === 'context') {
        oldCursor++;
        newCursor++;
        runOldStart = undefined;
      } else if (l.kind === 'del') {
        runOldStart ??= oldCursor;
        out.push({ kind: 'del', text: l.text, oldLine: oldCursor++, newLine: Math.max(1, newCursor) });
      } else {
        out.push({ kind: 'add', text: l.text, oldLine: Math.max(1, runOldStart ?? oldCursor), newLine: newCursor++ });
      }
    }
  }
  return out;
}

/**
 * Where a pre-image line ends up after the patch: shifted by the hunks above it; a line the
 * patch removes maps to where its replacement starts. Used to place the gold patch's changes on
 * the step's version of a file.
 */
export function mapOldLineToNew(file: FilePatch | undefined, oldLine: number): number {
  if (!file) return oldLine;
  let shift = 0;
  for (const h of file.hunks) {
    // A side with no lines names the line before the change; count from the line after it.
    const oldFirst = h.oldLines === 0 ? h.oldStart + 1 : h.oldStart;
    const newFirst = h.newLines === 0 ? h.newStart + 1 : h.newStart;
    if (oldLine < oldFirst) break;
    if (oldLine < oldFirst + h.oldLines) {
      let o = oldFirst;
      let n = newFirst;
      for (const l of h.lines) {
        if (l.kind === 'add') {
          n++;
          continue;
        }
        if (o === oldLine) return Math.max(1, n);
        o++;
        if (l.kind === 'context') n++;
      }
      return Math.max(1, newFirst);
    }
    shift = newFirst + h.newLines - (oldFirst + h.oldLines);
  }
  return Math.max(1, oldLine + shift);
}
