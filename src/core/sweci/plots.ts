// SWE-CI's two pictures (docs/sweci.md): passing tests per iteration against p0 and p*, and
// EvoScore as γ varies (the sensitivity table, one line per task or run).
import { lineChart } from '../plots';
import type { SweciTaskScore } from '../../protocol/sweci';

/** Passing tests after each iteration (0 = the base), with p0 and p* as reference lines. */
export function passingTestsChart(score: SweciTaskScore, standalone = false): string {
  return lineChart({
    title: `${score.taskId}: passing tests per iteration`,
    description: `Passing tests of ${score.taskId} after each of ${score.counts.length} iterations, from ${score.p0} at the base towards ${score.pStar} at the oracle.`,
    yLabel: 'passing tests',
    xLabel: 'iteration',
    integerX: true,
    standalone,
    yDomain: [0, Math.max(score.pStar, ...score.counts, 1)],
    series: [
      {
        name: score.runId,
        points: [score.p0, ...score.counts].map((y, x) => ({
          x,
          y,
          key: `${score.runId}:${x}`,
          label: x === 0 ? `base: ${y} passing` : `iteration ${x}: ${y} passing`,
        })),
      },
    ],
    references: [
      { y: score.p0, label: `p0 = ${score.p0}` },
      { y: score.pStar, label: `p* = ${score.pStar}` },
    ],
  });
}

/** EvoScore at each γ of the sensitivity table, one line per task (or run). */
export function evoScoreByGammaChart(scores: readonly SweciTaskScore[], standalone = false): string {
  return lineChart({
    title: 'EvoScore by γ',
    description: `EvoScore of ${scores.length} task(s) at γ from 0.8 (early iterations weigh more) to 1.2 (later ones weigh more).`,
    yLabel: 'EvoScore',
    xLabel: 'γ',
    standalone,
    series: scores.map((s) => ({
      name: `${s.taskId} (${s.runId})`,
      points: s.evoScores.map((e) => ({
        x: e.gamma,
        y: e.evoScore,
        key: `${s.runId}:${e.gamma}`,
        label: `γ = ${e.gamma}: ${e.evoScore.toFixed(4)}`,
      })),
    })),
  });
}
