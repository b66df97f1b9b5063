import { parsePatch } from '../patch/parse';
import { filePath, type Hunk, type Patch } from '../patch/types';

/**
 * Overshoot and undershoot as line counts, for the export's rows (docs/study.md "Export"): the
 * changed lines (added + removed) of the step's hunks that overlap no gold hunk of the same file
 * (overshoot), and of gold's hunks that overlap no hunk of the step (undershoot). Hunks are
 * compared on their pre-image line ranges, widened by nothing: coarser than the editor's
 * symbol-level annotations (`chainlens analyze`), but computable from two patches alone.
 */
export interface HunkScope {
  readonly overshootLines: number;
  readonly undershootLines: number;
}

export function hunkScope(stepPatch: string, goldPatch: string): HunkScope {
  const step = parsePatch(stepPatch, 'step patch');
  const gold = parsePatch(goldPatch, 'gold patch');
  return { overshootLines: uncovered(step, gold), undershootLines: uncovered(gold, step) };
}

/** Changed lines of `a`'s hunks that overlap no hunk of `b` in the same file. */
function uncovered(a: Patch, b: Patch): number {
  const byFile = new Map<string, readonly Hunk[]>();
  for (const file of b.files) byFile.set(filePath(file), file.hunks);
  let lines = 0;
  for (const file of a.files) {
    const others = byFile.get(filePath(file)) ?? [];
    for (const hunk of file.hunks)
      if (!others.some((o) => overlaps(hunk, o))) lines += hunk.lines.filter((l) => l.kind !== 'context').length;
  }
  return lines;
}

function overlaps(x: Hunk, y: Hunk): boolean {
  const xEnd = x.oldStart + Math.max(x.oldLines, 1);
  const yEnd = y.oldStart + Math.max(y.oldLines, 1);
  return x.oldStart < yEnd && y.oldStart < xEnd;
}
