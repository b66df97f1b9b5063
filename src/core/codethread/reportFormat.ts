import type { CodeThreadReport } from './report';

const pct = (x: number) => (Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}%`);

/** `chainlens codethread report` as text: rates, paired comparisons, drift fates, exclusions. */
export function formatCodeThreadReport(r: CodeThreadReport): string {
  const out: string[] = [];
  out.push(
    `shared instances: ${r.sharedInstances.length}${r.sharedInstances.length ? ` (${r.sharedInstances.join(', ')})` : ''}`,
  );
  out.push('', 'condition  runs  usable  PR2 resolved (shared)  95% CI');
  for (const c of r.rates)
    out.push(
      `${c.condition.padEnd(9)}  ${String(c.runs).padStart(4)}  ${String(c.usable).padStart(6)}  ${`${c.shared.successes}/${c.shared.total} ${pct(c.shared.rate)}`.padEnd(21)}  ${Number.isNaN(c.shared.low) ? '-' : `${pct(c.shared.low)}-${pct(c.shared.high)}`}`,
    );
  for (const p of r.pairs) {
    out.push(
      '',
      `${p.a} vs ${p.b} on ${p.n} instance(s): both ${p.both}, only ${p.a} ${p.onlyA}, only ${p.b} ${p.onlyB}, neither ${p.neither}; exact McNemar p = ${p.p.toPrecision(3)}`,
    );
    if (p.onlyAInstances.length) out.push(`  only ${p.a}: ${p.onlyAInstances.join(', ')}`);
    if (p.onlyBInstances.length) out.push(`  only ${p.b}: ${p.onlyBInstances.join(', ')}`);
  }
  for (const d of r.drift) {
    out.push(
      '',
      `${d.condition}: PR1 drift in ${d.drifted}/${d.runs} run(s); drifted symbols in PR2: kept ${d.kept}, edited but drift persists ${d.persisted}, repaired ${d.repaired}`,
    );
    for (const s of d.symbols) out.push(`  ${s.instanceId}  ${s.file}::${s.symbol}  ${s.labels.join(', ')}  ${s.fate}`);
  }
  if (r.excluded.length) {
    out.push('', 'left out:');
    for (const e of r.excluded) out.push(`  ${e.dir}: ${e.why}`);
  }
  return out.join('\n');
}
