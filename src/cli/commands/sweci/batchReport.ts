import { join, resolve } from 'node:path';
import type { CliIO } from '../../command';
import { sweciBatchRunReport } from '../../../app/sweci/batchReport';
import { sweciBatchCharts } from '../../../core/sweci/batchPlots';
import { writeFileAtomic } from '../../../infra/files';
import { table } from '../../format';
import { fixed } from './shared';

const r4 = (n: number | null) => (n === null ? '-' : fixed(n));

/** `chainlens report` on a SWE-CI batch run directory: EvoScore tables and the paper's observations. */
export async function printSweciBatchReport(
  io: CliIO,
  runDir: string,
  o: { json: boolean; gamma: number; plots?: string },
): Promise<number> {
  const { manifest, report } = await sweciBatchRunReport(runDir, o.gamma);
  if (o.plots) {
    const dir = resolve(io.cwd, o.plots);
    for (const [name, svg] of Object.entries(sweciBatchCharts(report))) writeFileAtomic(join(dir, name), svg);
    io.err(`plots written to ${dir}`);
  }
  if (o.json) {
    io.out(JSON.stringify(report, null, 2));
    return 0;
  }
  const g = report.gamma;
  io.out(`SWE-CI batch: ${manifest.tasks.length} task(s) × ${manifest.agents.length} agent(s), N = ${manifest.limit}`);
  io.out('');
  io.out(
    table([
      ['agent', 'tasks', `mean EvoScore γ=${g}`, 'zero-regr. rate', 'solved rate', 'average turns'],
      ...report.agents.map((a) => [
        a.agent,
        String(a.tasks),
        fixed(a.meanEvoScore),
        fixed(a.zeroRegressionRate, 2),
        fixed(a.solvedRate, 2),
        fixed(a.averageTurns, 1),
      ]),
    ]),
  );
  io.out('');
  io.out(
    table([
      ['agent', 'task', 'p0', 'p*', 'passing per iteration', `EvoScore γ=${g}`, 'zero-regr.', 'solved'],
      ...report.tasks.map((s) => [
        s.agent,
        s.taskId,
        String(s.p0),
        String(s.pStar),
        s.counts.join(' ') || '-',
        fixed(s.evoScore),
        s.zeroRegression ? 'yes' : 'no',
        s.solved ? 'yes' : 'no',
      ]),
    ]),
  );
  io.out('');
  io.out('EvoScore by γ (Fig. 5): mean per agent, and the ranking');
  io.out(
    table([
      ['γ', ...report.agents.map((a) => a.agent), 'ranking'],
      ...report.rankings.map((rk) => [
        String(rk.gamma),
        ...report.agents.map((a) => fixed(a.sensitivity.find((e) => e.gamma === rk.gamma)!.meanEvoScore)),
        rk.agents.join(' > '),
      ]),
    ]),
  );
  io.out('');
  io.out('Regressions by iteration (Obs. 4): rate = share of tasks whose iteration broke a passing test');
  io.out(
    table([
      ['agent', 'iteration', 'tasks', 'rate', 'magnitude'],
      ...report.regressions.map((p) => [
        p.agent,
        String(p.iteration),
        String(p.graded),
        fixed(p.rate, 2),
        fixed(p.magnitude, 2),
      ]),
    ]),
  );
  for (const t of report.regressionTrend)
    io.out(
      `${t.agent}: Pearson r(iteration, rate) ${r4(t.rateCorrelation)}, r(iteration, magnitude) ${r4(t.magnitudeCorrelation)}`,
    );
  io.out('');
  io.out('Cumulative best Normalized Change by iteration bin (B.3)');
  const bins = report.cumulativeBest[0]?.bins ?? [];
  io.out(
    table([
      ['agent', ...bins.map((b) => `${b.from}-${b.to}`)],
      ...report.cumulativeBest.map((c) => [c.agent, ...c.bins.map((b) => fixed(b.meanBest))]),
    ]),
  );
  if (report.linesChanged.length) {
    io.out('');
    io.out("Lines changed, tests left out (Obs. 6): the agent's from the base, the human's current → target");
    io.out(
      table([
        ['agent', 'task', 'solved', 'agent lines', 'human lines'],
        ...report.linesChanged.map((l) => [
          l.agent,
          l.taskId,
          l.solved ? 'yes' : 'no',
          String(l.agentLines),
          String(l.humanLines),
        ]),
      ]),
    );
  }
  return 0;
}
