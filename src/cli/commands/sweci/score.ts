import { join, resolve } from 'node:path';
import type { CliCommand } from '../../command';
import { parseCommandArgs } from '../../args';
import { scoreRuns } from '../../../app/sweci/score';
import { evoScoreByGammaChart, passingTestsChart } from '../../../core/sweci';
import { writeFileAtomic } from '../../../infra/files';
import { table } from '../../format';
import { fixed, positiveInt, positiveNumber } from './shared';

const usage = `usage: chainlens sweci score <workdir>... [--gamma <γ>] [--limit <N>] [--json] [--plots <dir>]

SWE-CI's metrics of one or many task runs (one work tree each): per task p0, p*, the passing
count per iteration, EvoScore at γ (default 1: the average Normalized Change) and at
γ = 0.8, 0.9, 1.0, 1.1, 1.2, zero-regression (no test that passed before breaks in any
iteration; the regressions are named), and solved (p* reached); then the mean EvoScore, the
zero-regression rate and the solved rate across tasks.
--limit  N of EvoScore (default: each task's iteration limit); shorter runs keep their last state
--plots  write passing-<task>.svg per task and evoscore-gamma.svg into <dir>`;

export const sweciScoreCommand: CliCommand = {
  name: 'sweci score',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      { gamma: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, plots: { type: 'string' } },
      usage,
      { min: 1, max: 10_000, missing: 'expected at least one SWE-CI work tree' },
    );
    const gamma = positiveNumber(values.gamma, '--gamma') ?? 1;
    const limit = positiveInt(values.limit, '--limit');
    const { scores, aggregate } = await scoreRuns(
      positionals.map((p) => resolve(io.cwd, p)),
      gamma,
      limit,
    );
    if (values.plots) {
      const dir = resolve(io.cwd, values.plots);
      for (const s of scores)
        writeFileAtomic(join(dir, `passing-${s.taskId}-${s.runId}.svg`), passingTestsChart(s, true), { shared: true });
      writeFileAtomic(join(dir, 'evoscore-gamma.svg'), evoScoreByGammaChart(scores, true), { shared: true });
      io.err(`plots written to ${dir}`);
    }
    if (values.json) {
      io.out(JSON.stringify({ tasks: scores, aggregate }, null, 2));
      return 0;
    }
    const gammas = aggregate.sensitivity.map((s) => s.gamma);
    io.out(
      table([
        ['task', 'run', 'p0', 'p*', 'passing per iteration', `EvoScore γ=${gamma}`, 'zero-regr.', 'solved'],
        ...scores.map((s) => [
          s.taskId,
          s.runId,
          String(s.p0),
          String(s.pStar),
          s.counts.join(' ') || '-',
          fixed(s.evoScore),
          s.zeroRegression ? 'yes' : 'no',
          s.solved ? 'yes' : 'no',
        ]),
      ]),
    );
    for (const s of scores)
      for (const r of s.regressions) io.out(`${s.taskId} iteration ${r.iteration} broke: ${r.tests.join(', ')}`);
    io.out('');
    io.out(
      table([
        ['γ', ...gammas.map((g) => String(g))],
        ...scores.map((s) => [s.taskId, ...gammas.map((g) => fixed(s.evoScores.find((e) => e.gamma === g)!.evoScore))]),
        ['mean', ...aggregate.sensitivity.map((e) => fixed(e.meanEvoScore))],
      ]),
    );
    io.out('');
    io.out(
      `${aggregate.tasks} task(s): mean EvoScore (γ=${gamma}) ${fixed(aggregate.meanEvoScore)}, ` +
        `zero-regression rate ${fixed(aggregate.zeroRegressionRate, 2)}, solved rate ${fixed(aggregate.solvedRate, 2)}`,
    );
    return 0;
  },
};
