import type { BatchStepAnalysis } from '../../protocol/batch';
import { analyzeStep, createSymbolIndex } from '../../core/analysis';
import { parsePatch } from '../../core/patch';
import { readBlobs } from '../../infra/git/blobReader';
import { TreeSitterParser } from '../../infra/treesitter/parser';

let parser: TreeSitterParser | undefined;

/**
 * What a chain-error trace needs of a step (docs/reference/batch.md, "Chain errors"): the files
 * and symbols its patch and its gold patch touch, and the symbol-level overshoot and undershoot
 * of the patch against gold (src/core/analysis), both sides read at the step's start commit.
 * Null when the patches cannot be parsed: the trace then has nothing to go on, and says so.
 */
export async function analyzeBatchStep(
  repo: string,
  startCommit: string,
  stepDiff: string,
  goldPatch: string,
): Promise<BatchStepAnalysis | null> {
  let step, gold;
  try {
    step = parsePatch(stepDiff, 'step');
    gold = parsePatch(goldPatch, 'gold');
  } catch {
    return null;
  }
  const paths = [
    ...new Set(
      [...step.files, ...gold.files].flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => p !== null),
    ),
  ];
  const blobs = await readBlobs(repo, startCommit, paths);
  parser ??= new TreeSitterParser();
  const a = await analyzeStep({
    stepPatch: step,
    goldPatch: gold,
    readFile: async (p) => blobs.get(p),
    symbols: createSymbolIndex(parser),
  });
  // Symbol-level entries where a grammar mapped the hunks; whole-file entries for the rest.
  const symbolFiles = new Set(a.coverage.filter((c) => c.level === 'symbol').map((c) => c.file));
  const marks = (sym: typeof a.symbols.overshoot, files: typeof a.files.overshoot) => [
    ...sym.map((e) => ({ file: e.file, symbol: e.symbol ?? null })),
    ...files
      .filter((e) => !symbolFiles.has(e.file) || !sym.some((s) => s.file === e.file))
      .map((e) => ({ file: e.file, symbol: null })),
  ];
  return {
    step_files: a.files.step,
    gold_files: a.files.gold,
    gold_symbols: a.symbols.gold,
    overshoot: marks(a.symbols.overshoot, a.files.overshoot),
    undershoot: marks(a.symbols.undershoot, a.files.undershoot),
  };
}
