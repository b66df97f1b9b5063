// The metrics of one SWE-CI task and of many (docs/sweci.md), from the recorded iterations.
import type { SweciRecord, SweciTaskScore } from '../../protocol/sweci';
import { evoScore, normalizedChange, scoredCounts, SENSITIVITY_GAMMAS } from './metrics';

/**
 * Scores one task's record. An iteration whose tests did not run counts 0 passing tests, as in
 * SWE-CI's summary (its record has no `passed`). `limit` is N of EvoScore (default: the task's).
 */
export function scoreTask(record: SweciRecord, gamma = 1, limit = record.task.limit): SweciTaskScore {
  const p0 = record.task.initial.passed.length;
  const pStar = record.task.oracle.passed.length;
  const counts = record.iterations.map((it) => (it.run.usable ? it.run.passed.length : 0));
  const scored = scoredCounts(counts, p0, pStar, limit);
  const changes = scored.map((p) => normalizedChange(p, p0, pStar));
  const gammas = [...new Set([...SENSITIVITY_GAMMAS, gamma])].sort((a, b) => a - b);
  const withBase = [p0, ...scored];
  return {
    taskId: record.task.taskId,
    runId: record.runId,
    p0,
    pStar,
    limit,
    counts,
    normalizedChanges: changes,
    evoScores: gammas.map((g) => ({ gamma: g, evoScore: evoScore(changes, g) })),
    evoScore: evoScore(changes, gamma),
    gamma,
    zeroRegression: record.iterations.every((it) => it.regressions.length === 0),
    countNeverDrops: withBase.every((p, i) => i === 0 || p >= withBase[i - 1]),
    solved: Math.max(...withBase) === pStar,
    regressions: record.iterations
      .filter((it) => it.regressions.length > 0)
      .map((it) => ({ iteration: it.iteration, tests: it.regressions })),
    stopped: record.stopped,
  };
}

export interface SweciAggregate {
  tasks: number;
  gamma: number;
  /** Mean EvoScore at γ (at γ = 1: SWE-CI's Average Normalized Change). */
  meanEvoScore: number;
  /** Mean EvoScore at each γ of the sensitivity table. */
  sensitivity: { gamma: number; meanEvoScore: number }[];
  zeroRegressionRate: number;
  solvedRate: number;
}

/** Across tasks: means and rates, each task weighing the same (SWE-CI's summary averages rows). */
export function aggregateScores(scores: readonly SweciTaskScore[], gamma = 1): SweciAggregate {
  const n = scores.length;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const at = (s: SweciTaskScore, g: number) => s.evoScores.find((e) => e.gamma === g)?.evoScore ?? 0;
  const gammas = [...new Set([...SENSITIVITY_GAMMAS, gamma])].sort((a, b) => a - b);
  return {
    tasks: n,
    gamma,
    meanEvoScore: mean(scores.map((s) => at(s, gamma))),
    sensitivity: gammas.map((g) => ({ gamma: g, meanEvoScore: mean(scores.map((s) => at(s, g))) })),
    zeroRegressionRate: mean(scores.map((s) => (s.zeroRegression ? 1 : 0))),
    solvedRate: mean(scores.map((s) => (s.solved ? 1 : 0))),
  };
}
