import type { BatchReport, DropRow } from '../aggregate';
import { textTable } from '../../util/textTable';
import { EMPTY_TRACE, flakyText, listed, pct, rateText, relativeText } from './cells';
import { chainsweText, evidenceText } from './chainsweSections';

/** `chainlens report` on a terminal: the figures, then the chain errors with their traces. */
export function reportText(report: BatchReport): string {
  const out: string[] = [];
  out.push(
    `${report.chains} chain(s); ${report.recordedSteps}/${report.expectedSteps} step evaluations recorded` +
      (report.recordedSteps < report.expectedSteps
        ? ' (the batch is not finished: figures cover what is recorded)'
        : ''),
    '',
  );
  out.push(...chainsweText(report));
  const groups = [['source', 'mode', 'steps resolved [95% CI]', 'full chain [95% CI]', 'left out']];
  for (const g of report.groups)
    groups.push([g.source, g.mode, rateText(g.steps), rateText(g.fullChain), String(g.infraFailures)]);
  out.push('every step graded, per mode (Wilson 95% intervals):', textTable(groups), '');

  const positions = [...new Set(report.groups.flatMap((g) => g.byPosition.map((p) => p.position)))].sort(
    (a, b) => a - b,
  );
  const byPos = [['source', 'mode', ...positions.map((p) => `pos ${p}`)]];
  for (const g of report.groups)
    byPos.push([
      g.source,
      g.mode,
      ...positions.map((p) => {
        const r = g.byPosition.find((x) => x.position === p);
        return r ? rateText(r) : '-';
      }),
    ]);
  out.push('resolve rate by chain position (Wilson 95% intervals):', textTable(byPos), '');

  if (report.drops.length)
    out.push(
      'Oracle-to-Seq drop by position (chains judged in both modes):',
      dropTable(report.drops, 'oracle', 'seq'),
      '',
    );
  if (report.memoryDrops.length)
    out.push(
      'Seq-to-Seq+Mem drop by position (chains judged in both modes):',
      dropTable(report.memoryDrops, 'seq', 'seq+mem'),
      '',
    );

  const fp = [['source', 'mode', 'left-bug-unfixed', 'broke-working-code', 'no-usable-patch']];
  for (const g of report.groups)
    fp.push([
      g.source,
      g.mode,
      String(g.fingerprints['left-bug-unfixed']),
      String(g.fingerprints['broke-working-code']),
      String(g.fingerprints['no-usable-patch']),
    ]);
  out.push('failure fingerprints of unresolved steps:', textTable(fp), '');

  out.push(
    `chain errors (resolved under Oracle, not under Seq, position >= 2): ${report.chainErrors.length || 'none'}`,
  );
  for (const e of report.chainErrors) {
    out.push(
      `  ${e.source}  ${e.chainId}  position ${e.position} (${e.instanceId}): ${e.fingerprint}; cause from the ${e.causeFrom}: ${e.cause}`,
    );
    if (e.evidence) out.push(`    evidence: ${evidenceText(e.evidence)}`);
    const flaky = flakyText(e);
    if (flaky) out.push(`    ${flaky}`);
    if (e.trace.length === 0) out.push(`    ${EMPTY_TRACE}`);
    for (const t of e.trace.slice(0, 8))
      out.push(
        `    step ${t.position} ${t.kind} ${t.file}${t.symbol ? ` ${t.symbol}` : ' (whole file)'}${t.sameSymbol ? '  <- a symbol this step must change' : ''}`,
      );
    if (e.trace.length > 8) out.push(`    … ${e.trace.length - 8} more`);
  }
  if (report.repeats > 1) out.push('', ...flakySection(report));
  if (report.costs.length) {
    const costs = [['source', 'chain', 'steps', 'cost (USD)']];
    for (const c of report.costs) costs.push([c.source, c.chainId ?? '(all)', String(c.steps), c.cost.toFixed(4)]);
    out.push('', 'costs (from the trajectories):', textTable(costs));
  }
  for (const table of Object.values(report.extra)) {
    out.push('', `${table.title}:`);
    out.push(textTable([[...table.columns], ...table.rows.map((r) => r.map((c) => (c === null ? '-' : String(c))))]));
  }
  return out.join('\n');
}

/** A drop table: a row's `oracle` holds the `from` mode's rate and `seq` the `to` mode's (aggregate.ts). */
function dropTable(rows: readonly DropRow[], from: string, to: string): string {
  return textTable([
    ['source', 'position', 'pairs', from, to, 'drop', 'relative'],
    ...rows.map((d) => [
      d.source,
      String(d.position),
      String(d.pairs),
      pct(d.oracle.rate),
      pct(d.seq.rate),
      pct(d.drop),
      relativeText(d.relative),
    ]),
  ]);
}

function flakySection(report: BatchReport): string[] {
  const out = [
    `flaky steps (each graded step evaluated ${report.repeats} times on the same commit; a test whose result changed is flaky): ${report.flakySteps.length || 'none'}`,
  ];
  for (const f of report.flakySteps)
    out.push(
      `  ${f.source}  ${f.mode}  ${f.chainId}  position ${f.position} (${f.instanceId}): resolved ${f.resolved} of ${f.runs}${f.gold ? ' (gold does not resolve it every time)' : ''}${f.flakyTests.length ? `; flaky: ${listed(f.flakyTests)}` : ''}`,
    );
  return out;
}
