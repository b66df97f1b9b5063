// The comparisons SWE-CI's paper draws across agents and tasks (docs/sweci.md, "Reporting a
// batch"), from the recorded iterations of a batch: EvoScore per agent and its ranking as γ
// varies (Obs. 2, Fig. 5), regressions against iteration (Obs. 4, Fig. 7), lines changed against
// the human's diff (Obs. 6, Fig. 9), average turns (B.2) and cumulative-best bins (B.3). Pure.
import type { SweciRecord, SweciTaskScore } from '../../protocol/sweci';
import { SENSITIVITY_GAMMAS } from './metrics';
import { aggregateScores, scoreTask, type SweciAggregate } from './score';

export interface SweciBatchRun {
  agent: string;
  record: SweciRecord;
  /** Lines the agent changed (base → its last kept code) and the human did (current → target), tests left out. */
  lines?: { agent: number; human: number };
}

export interface SweciAgentSummary extends SweciAggregate {
  agent: string;
  /** B.2: iterations used per task (a loop that closed the gap early used fewer), averaged. */
  averageTurns: number;
}

export interface SweciRegressionPoint {
  agent: string;
  iteration: number;
  /** Tasks with this iteration graded. */
  graded: number;
  /** Of those, the share whose iteration broke a test that passed before (Obs. 4's rate). */
  rate: number;
  /** Mean number of tests broken, over the iterations that broke any (Obs. 4's magnitude); 0 when none did. */
  magnitude: number;
}

export interface SweciBatchReport {
  gamma: number;
  tasks: (SweciTaskScore & { agent: string })[];
  agents: SweciAgentSummary[];
  /** Fig. 5: agents by mean EvoScore at each γ, best first (ties keep the agents' order). */
  rankings: { gamma: number; agents: string[] }[];
  regressions: SweciRegressionPoint[];
  /** Obs. 4: Pearson correlation of iteration with regression rate, and with magnitude (null: too few points). */
  regressionTrend: { agent: string; rateCorrelation: number | null; magnitudeCorrelation: number | null }[];
  /** B.3: mean over tasks of the best Normalized Change reached by the end of each 4-iteration bin. */
  cumulativeBest: { agent: string; bins: { from: number; to: number; meanBest: number }[] }[];
  /** Obs. 6 (Fig. 9), per task; the paper compares solved tasks only (`solved`). */
  linesChanged: { agent: string; taskId: string; solved: boolean; agentLines: number; humanLines: number }[];
}

/** Pearson's r of two equally long series; null with fewer than 3 points or no spread. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 3 || ys.length !== n) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The batch's report: every run scored as `sweci score` scores it, then compared per agent. */
export function sweciBatchReport(runs: readonly SweciBatchRun[], gamma = 1): SweciBatchReport {
  const agents = [...new Set(runs.map((r) => r.agent))];
  const tasks = runs.map((r) => ({ ...scoreTask(r.record, gamma), agent: r.agent }));
  const of = (agent: string) => tasks.filter((t) => t.agent === agent);
  const recordsOf = (agent: string) => runs.filter((r) => r.agent === agent).map((r) => r.record);
  const summaries: SweciAgentSummary[] = agents.map((agent) => ({
    agent,
    ...aggregateScores(of(agent), gamma),
    averageTurns: mean(recordsOf(agent).map((r) => r.iterations.length)),
  }));
  const gammas = [...new Set([...SENSITIVITY_GAMMAS, gamma])].sort((a, b) => a - b);
  const meanAt = (s: SweciAgentSummary, g: number) => s.sensitivity.find((e) => e.gamma === g)?.meanEvoScore ?? 0;
  const rankings = gammas.map((g) => ({
    gamma: g,
    agents: [...summaries].sort((a, b) => meanAt(b, g) - meanAt(a, g)).map((s) => s.agent),
  }));

  const regressions: SweciRegressionPoint[] = agents.flatMap((agent) => {
    const records = recordsOf(agent);
    const limit = Math.max(0, ...records.map((r) => r.task.limit));
    return Array.from({ length: limit }, (_, k) => {
      const at = records.map((r) => r.iterations.find((it) => it.iteration === k + 1)).filter((it) => it !== undefined);
      const broke = at.filter((it) => it.regressions.length > 0);
      return {
        agent,
        iteration: k + 1,
        graded: at.length,
        rate: at.length ? broke.length / at.length : 0,
        magnitude: mean(broke.map((it) => it.regressions.length)),
      };
    }).filter((p) => p.graded > 0);
  });
  const regressionTrend = agents.map((agent) => {
    const points = regressions.filter((p) => p.agent === agent);
    const withAny = points.filter((p) => p.magnitude > 0);
    return {
      agent,
      rateCorrelation: pearson(
        points.map((p) => p.iteration),
        points.map((p) => p.rate),
      ),
      magnitudeCorrelation: pearson(
        withAny.map((p) => p.iteration),
        withAny.map((p) => p.magnitude),
      ),
    };
  });

  const cumulativeBest = agents.map((agent) => {
    const scores = of(agent);
    const limit = Math.max(0, ...scores.map((s) => s.limit));
    const bins: { from: number; to: number; meanBest: number }[] = [];
    for (let from = 1; from <= limit; from += 4) {
      const to = Math.min(from + 3, limit);
      bins.push({
        from,
        to,
        meanBest: mean(scores.map((s) => Math.max(0, ...s.normalizedChanges.slice(0, to)))),
      });
    }
    return { agent, bins };
  });

  const linesChanged = runs.flatMap((r, i) =>
    r.lines
      ? [
          {
            agent: r.agent,
            taskId: r.record.task.taskId,
            solved: tasks[i].solved,
            agentLines: r.lines.agent,
            humanLines: r.lines.human,
          },
        ]
      : [],
  );
  return { gamma, tasks, agents: summaries, rankings, regressions, regressionTrend, cumulativeBest, linesChanged };
}
