// The pictures of a SWE-CI batch's report (docs/sweci.md, "Reporting a batch"), one line or bar
// group per agent: EvoScore against γ (Fig. 5), regression rate against iteration (Fig. 7), the
// cumulative-best bins (B.3) and lines changed against the human's (Fig. 9).
import { barChart, lineChart } from '../plots';
import type { SweciBatchReport } from './observations';

export function sweciBatchCharts(r: SweciBatchReport): Record<string, string> {
  const agents = r.agents.map((a) => a.agent);
  return {
    'evoscore-gamma.svg': lineChart({
      title: 'Mean EvoScore by γ, per agent',
      description: `Mean EvoScore of ${agents.length} agent(s) at γ from 0.8 to 1.2 (SWE-CI Fig. 5).`,
      yLabel: 'mean EvoScore',
      xLabel: 'γ',
      standalone: true,
      series: r.agents.map((a) => ({
        name: a.agent,
        points: a.sensitivity.map((e) => ({
          x: e.gamma,
          y: e.meanEvoScore,
          key: `${a.agent}:${e.gamma}`,
          label: `${a.agent}, γ = ${e.gamma}: ${e.meanEvoScore.toFixed(4)}`,
        })),
      })),
    }),
    'regressions-by-iteration.svg': lineChart({
      title: 'Regression rate by iteration',
      description: 'Share of tasks whose iteration broke a test that passed before, per iteration (SWE-CI Fig. 7).',
      yLabel: 'regression rate',
      xLabel: 'iteration',
      percent: true,
      integerX: true,
      standalone: true,
      series: agents.map((agent) => ({
        name: agent,
        points: r.regressions
          .filter((p) => p.agent === agent)
          .map((p) => ({
            x: p.iteration,
            y: p.rate,
            key: `${agent}:${p.iteration}`,
            label: `${agent}, iteration ${p.iteration}: ${(p.rate * 100).toFixed(0)}% of ${p.graded} task(s)`,
          })),
      })),
    }),
    'cumulative-best.svg': barChart({
      title: 'Cumulative best Normalized Change by iteration bin',
      description: 'Mean over tasks of the best Normalized Change reached by the end of each bin (SWE-CI B.3).',
      yLabel: 'mean best Normalized Change',
      standalone: true,
      series: agents,
      groups: (r.cumulativeBest[0]?.bins ?? []).map((bin, k) => ({
        label: `${bin.from}–${bin.to}`,
        bars: Object.fromEntries(
          r.cumulativeBest.map((c) => [c.agent, c.bins[k] ? { value: c.bins[k].meanBest } : undefined]),
        ),
      })),
    }),
    'lines-changed.svg': barChart({
      title: "Lines changed: agent against the human's diff",
      description:
        "Lines the agent changed from the base, beside the human's diff from current to target, tests left out (SWE-CI Fig. 9).",
      yLabel: 'lines changed',
      standalone: true,
      series: ['human', ...agents],
      groups: [...new Set(r.linesChanged.map((l) => l.taskId))].map((taskId) => {
        const rows = r.linesChanged.filter((l) => l.taskId === taskId);
        return {
          label: taskId,
          bars: {
            human: rows[0] ? { value: rows[0].humanLines } : undefined,
            ...Object.fromEntries(
              rows.map((l) => [
                l.agent,
                { value: l.agentLines, label: `${l.agent}${l.solved ? ' (solved)' : ''}: ${l.agentLines}` },
              ]),
            ),
          },
        };
      }),
    }),
  };
}
