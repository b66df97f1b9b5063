import { resolve } from 'node:path';
import type { CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { UserError } from '../../core/util/errors';
import { compareRuns } from '../../core/metrics/compareRuns';
import { describeIssues } from '../../core/formats/issues';
import { ChainEvaluationSchema, type ChainEvaluation } from '../../protocol/evaluation';
import { readUserFile } from '../../infra/files';
import { table } from '../format';

const usage = `usage: chainlens compare <oracle-report.json> <seq-report.json> [--json]

Compares an Oracle and a Seq evaluation of the same chain (reports written by chainlens eval --report):
per-bug success rate, full-chain success, success by position, chain errors (resolved under Oracle,
not under Seq) and the failure fingerprint of each unresolved step: broke-working-code (a
PASS_TO_PASS test fails), left-bug-unfixed (only FAIL_TO_PASS tests fail), no-usable-patch.`;

function readReport(cwd: string, file: string): ChainEvaluation {
  const path = resolve(cwd, file);
  let raw: unknown;
  try {
    raw = JSON.parse(readUserFile(path, 'report'));
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${path} is not valid JSON: ${(e as Error).message}`, 'input');
  }
  const parsed = ChainEvaluationSchema.safeParse(raw);
  if (!parsed.success)
    throw new UserError(`${path} is not a chainlens eval report`, 'input', describeIssues(path, parsed.error));
  return parsed.data;
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

export const compareCommand: CliCommand = {
  name: 'compare',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' } }, usage, {
      min: 2,
      max: 2,
      missing: 'expected two reports',
    });
    const c = compareRuns(readReport(io.cwd, positionals[0]), readReport(io.cwd, positionals[1]));
    if (values.json) {
      io.out(JSON.stringify(c, null, 2));
      return 0;
    }
    io.out(`chain ${c.chainId}`);
    io.out(
      table([
        ['run', 'mode', 'resolved', 'per-bug rate', 'full chain'],
        [
          c.oracle.runId,
          'oracle',
          `${c.oracle.resolved}/${c.oracle.total}`,
          pct(c.oracle.rate),
          c.oracle.subset ? 'subset' : c.oracle.fullChain ? 'yes' : 'no',
        ],
        [
          c.seq.runId,
          'seq',
          `${c.seq.resolved}/${c.seq.total}`,
          pct(c.seq.rate),
          c.seq.subset ? 'subset' : c.seq.fullChain ? 'yes' : 'no',
        ],
      ]),
    );
    io.out('');
    io.out(
      table([
        ['pos', 'instance', 'oracle', 'seq', 'chain error', 'seq failure'],
        ...c.positions.map((p) => [
          String(p.order),
          p.instanceId,
          p.oracle,
          p.seq,
          p.chainError ? 'YES' : '',
          p.seqFingerprint ?? '',
        ]),
      ]),
    );
    io.out(`\nchain errors: ${c.chainErrors.length ? c.chainErrors.map((o) => `step ${o}`).join(', ') : 'none'}`);
    return 0;
  },
};
