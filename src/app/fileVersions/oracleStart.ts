// A file at a step's Oracle start, as text: the chain's base with the gold test patch and gold
// patch of every earlier step applied (the state the run engine builds for Oracle mode,
// src/core/run/engine.ts). In Seq mode a step starts from the agent's own work, where gold's
// patch may not apply; gold's version of a symbol is then read here, on the state gold was
// written against (docs/reference/drift.md, "Where gold does not apply").
import { applyFilePatch } from '../../core/patch/apply';
import { parsePatch } from '../../core/patch/parse';
import { filePath } from '../../core/patch/types';
import { readBlobs } from '../../infra/git/blobReader';
import type { ChainRunSnapshot } from '../run/snapshot';

/** The file at the Oracle start of the chain step at `index`; undefined when absent there or a patch does not apply. */
export async function oracleStartText(run: ChainRunSnapshot, index: number, path: string): Promise<string | undefined> {
  let text = (await readBlobs(run.dir, run.chain.baseCommit, [path])).get(path);
  for (const prev of run.chain.steps.slice(0, index)) {
    for (const [patch, what] of [
      [prev.testPatch, 'test patch'],
      [prev.goldPatch, 'gold patch'],
    ] as const) {
      const section = parsePatch(patch, `the gold ${what} of step ${prev.order}`).files.find(
        (f) => filePath(f) === path || f.oldPath === path,
      );
      if (!section) continue;
      if (section.newPath === null) return undefined;
      try {
        text = applyFilePatch(text ?? '', section);
      } catch {
        return undefined;
      }
    }
  }
  return text;
}
