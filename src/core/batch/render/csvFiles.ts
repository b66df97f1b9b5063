import type { BatchRecord } from '../../../protocol/batch';
import type { BatchReport } from '../aggregate';
import { csv } from './cells';
import { chainsweCsvFiles } from './chainsweCsv';

/**
 * `chainlens report --csv <dir>`: one file per table. The columns are documented in
 * docs/reference/batch.md ("CSV columns"); rates are fractions in [0, 1], intervals Wilson 95%.
 */
export function reportCsvFiles(report: BatchReport, records: readonly BatchRecord[]): Record<string, string> {
  const files: Record<string, string> = {};
  files['steps.csv'] = csv(
    [
      'chain_id',
      'source',
      'mode',
      'position',
      'order',
      'instance_id',
      'status',
      'resolved',
      'error_kind',
      'infra_failure',
      'f2p_passed',
      'f2p_total',
      'p2p_passed',
      'p2p_total',
      'duration_s',
      'cost',
      'log',
    ],
    [...records]
      .sort(
        (a, b) =>
          a.chain_id.localeCompare(b.chain_id) ||
          a.source.localeCompare(b.source) ||
          a.mode.localeCompare(b.mode) ||
          a.position - b.position,
      )
      .map((r) => [
        r.chain_id,
        r.source,
        r.mode,
        r.position,
        r.order,
        r.instance_id,
        r.status,
        r.resolved,
        r.error_kind,
        r.infra_failure,
        r.tests_status.FAIL_TO_PASS.success.length,
        r.tests_status.FAIL_TO_PASS.success.length + r.tests_status.FAIL_TO_PASS.failure.length,
        r.tests_status.PASS_TO_PASS.success.length,
        r.tests_status.PASS_TO_PASS.success.length + r.tests_status.PASS_TO_PASS.failure.length,
        r.duration_s,
        r.cost,
        r.log,
      ]),
  );
  files['groups.csv'] = csv(
    [
      'source',
      'mode',
      'steps_resolved',
      'steps_judged',
      'rate',
      'low',
      'high',
      'chains_full',
      'chains_complete',
      'full_rate',
      'full_low',
      'full_high',
      'infra_failures',
      'left_bug_unfixed',
      'broke_working_code',
      'no_usable_patch',
    ],
    report.groups.map((g) => [
      g.source,
      g.mode,
      g.steps.successes,
      g.steps.total,
      g.steps.rate,
      g.steps.low,
      g.steps.high,
      g.fullChain.successes,
      g.fullChain.total,
      g.fullChain.rate,
      g.fullChain.low,
      g.fullChain.high,
      g.infraFailures,
      g.fingerprints['left-bug-unfixed'],
      g.fingerprints['broke-working-code'],
      g.fingerprints['no-usable-patch'],
    ]),
  );
  files['positions.csv'] = csv(
    ['source', 'mode', 'position', 'resolved', 'judged', 'rate', 'low', 'high'],
    report.groups.flatMap((g) =>
      g.byPosition.map((p) => [g.source, g.mode, p.position, p.successes, p.total, p.rate, p.low, p.high]),
    ),
  );
  files['drops.csv'] = csv(
    ['source', 'position', 'pairs', 'oracle_resolved', 'seq_resolved', 'oracle_rate', 'seq_rate', 'drop', 'relative'],
    report.drops.map((d) => [
      d.source,
      d.position,
      d.pairs,
      d.oracle.successes,
      d.seq.successes,
      d.oracle.rate,
      d.seq.rate,
      d.drop,
      d.relative,
    ]),
  );
  if (report.memoryDrops.length)
    files['memory_drops.csv'] = csv(
      [
        'source',
        'position',
        'pairs',
        'seq_resolved',
        'seq_mem_resolved',
        'seq_rate',
        'seq_mem_rate',
        'drop',
        'relative',
      ],
      report.memoryDrops.map((d) => [
        d.source,
        d.position,
        d.pairs,
        d.oracle.successes,
        d.seq.successes,
        d.oracle.rate,
        d.seq.rate,
        d.drop,
        d.relative,
      ]),
    );
  Object.assign(files, chainsweCsvFiles(report));
  const repeated = report.repeats > 1;
  files['chain_errors.csv'] = csv(
    [
      'source',
      'chain_id',
      'position',
      'order',
      'instance_id',
      'fingerprint',
      'cause',
      'cause_from',
      'evidence',
      'culprits',
      'trace',
      // --repeats only: the columns of a single-run batch stay as they were
      ...(repeated ? ['unstable', 'flaky_tests'] : []),
    ],
    report.chainErrors.map((e) => [
      e.source,
      e.chainId,
      e.position,
      e.order,
      e.instanceId,
      e.fingerprint,
      e.cause,
      e.causeFrom,
      e.evidence?.verdict,
      e.evidence?.culprits
        .map((c) => `${c.position}:${c.hunks.map((h) => `${h.kind}:${h.hunk}`).join('+') || 'step'}`)
        .join(' '),
      e.trace
        .map((t) => `${t.position}:${t.kind}:${t.file}${t.symbol ? `::${t.symbol}` : ''}${t.sameSymbol ? '*' : ''}`)
        .join(' '),
      ...(repeated ? [e.unstable, e.flakyTests.join(' ')] : []),
    ]),
  );
  if (repeated)
    files['flaky_steps.csv'] = csv(
      ['source', 'mode', 'chain_id', 'position', 'instance_id', 'runs', 'resolved', 'gold', 'flaky_tests'],
      report.flakySteps.map((f) => [
        f.source,
        f.mode,
        f.chainId,
        f.position,
        f.instanceId,
        f.runs,
        f.resolved,
        f.gold,
        f.flakyTests.join(' '),
      ]),
    );
  files['costs.csv'] = csv(
    ['source', 'chain_id', 'steps', 'cost_usd'],
    report.costs.map((c) => [c.source, c.chainId, c.steps, c.cost]),
  );
  for (const [id, table] of Object.entries(report.extra)) files[`${id}.csv`] = csv(table.columns, table.rows);
  return files;
}
