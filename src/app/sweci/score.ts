import { aggregateScores, scoreTask, type SweciAggregate } from '../../core/sweci';
import type { SweciTaskScore } from '../../protocol/sweci';
import { openTask } from './openTask';

export interface ScoreResult {
  scores: SweciTaskScore[];
  aggregate: SweciAggregate;
}

/**
 * The metrics of the SWE-CI runs in `dirs` (one work tree per task), each and across all. Reads
 * only; a run still going is scored as it stands (its remaining iterations padded with its last
 * state, as SWE-CI's summary does).
 */
export async function scoreRuns(dirs: readonly string[], gamma = 1, limit?: number): Promise<ScoreResult> {
  const scores: SweciTaskScore[] = [];
  for (const dir of dirs) {
    const { record } = await openTask(dir, undefined, false);
    scores.push(scoreTask(record, gamma, limit));
  }
  return { scores, aggregate: aggregateScores(scores, gamma) };
}
