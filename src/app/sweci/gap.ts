import { existsSync, readFileSync } from 'node:fs';
import { gapEntries, testGap } from '../../core/sweci';
import { startingRun } from '../../core/sweci/policies';
import type { SweciGapEntry } from '../../protocol/sweci';
import { currentIteration, openTask } from './openTask';

export interface GapView {
  taskId: string;
  /** The iteration the gap is for; null when the loop has stopped. */
  iteration: number | null;
  limit: number;
  passing: number;
  p0: number;
  pStar: number;
  entries: SweciGapEntry[];
}

/**
 * What the Architect sees: the oracle-passing tests that the state the iteration starts from does not pass,
 * each with how it ended and its failure output from that state's log (SWE-CI's non-passed
 * folder). Reads only; it never shows the oracle's code.
 */
export async function readGap(dir: string): Promise<GapView> {
  const { record } = await openTask(dir, undefined, false);
  // The state the next iteration starts from: after a discarded iteration, the last kept one.
  const run = startingRun(record);
  const gap = testGap(record.task.oracle.passed, new Set(run.passed));
  const log = existsSync(run.logPath) ? readFileSync(run.logPath, 'utf8') : null;
  return {
    taskId: record.task.taskId,
    iteration: currentIteration(record),
    limit: record.task.limit,
    passing: run.passed.length,
    p0: record.task.initial.passed.length,
    pStar: record.task.oracle.passed.length,
    entries: gapEntries(gap, log),
  };
}

/** The gap as SWE-CI's `non-passed/summary.jsonl`: one `{test, description}` object per line. */
export function gapSummaryJsonl(view: GapView): string {
  return view.entries.map((e) => JSON.stringify({ test: e.test, description: e.description })).join('\n') + '\n';
}
