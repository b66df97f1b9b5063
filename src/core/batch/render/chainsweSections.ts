import type { BatchReport, ChainErrorRow } from '../aggregate';
import { BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED } from '../../stats';
import { textTable } from '../../util/textTable';
import { bootstrapText, pct, pointsText, rateText, relativeText } from './cells';

const RULE = {
  'scored-until-first-unresolved': 'scored until first unresolved',
  'every-step-graded': 'every step graded',
} as const;

/** A paragraph, or a titled table whose first row is its header. */
export type Section = { readonly text: string } | { readonly title: string; readonly rows: readonly string[][] };

/**
 * The ChainSWE tables of `chainlens report`, once for the terminal and the HTML page
 * (docs/reference/metrics.md defines each figure).
 */
export function chainsweSections(report: BatchReport): Section[] {
  const out: Section[] = [];
  const excluded = report.excluded.reduce((n, e) => n + e.count, 0);
  out.push({
    text: excluded
      ? `left out of every denominator (not the solver's): ${excluded}: ${report.excluded.map((e) => `${e.reason} ${e.count} ("${e.example}")`).join('; ')}`
      : "left out of every denominator: none (every recorded step counts; a solver's failure is unresolved)",
  });
  const head = [
    ['source', 'mode', 'rule', 'per-bug [Wilson]', 'by repo', 'vs Oracle', 'chain [Wilson]', 'by repo', 'vs Oracle'],
  ];
  for (const h of report.headline)
    head.push([
      h.source,
      h.mode,
      RULE[h.rule],
      rateText(h.perBug),
      bootstrapText(h.perBug.byRepository),
      h.vsOracle ? `${relativeText(h.vsOracle.perBugRelative)} (${pointsText(h.vsOracle.perBugAbsolute)})` : '',
      rateText(h.chain),
      bootstrapText(h.chain.byRepository),
      h.vsOracle ? `${relativeText(h.vsOracle.chainRelative)} (${pointsText(h.vsOracle.chainAbsolute)})` : '',
    ]);
  out.push({
    title: `ChainSWE Table 2 (headline; Seq: a chain is scored until its first unresolved bug; "by repo": cluster bootstrap over repositories, ${BOOTSTRAP_REPLICATES} resamples, seed ${BOOTSTRAP_SEED})`,
    rows: head,
  });
  const every = [
    ['source', 'mode', 'per-bug (every step graded)', 'chain (every step graded)', 'cost/chain', 'peak context/chain'],
  ];
  for (const h of report.headline)
    every.push([
      h.source,
      h.mode,
      rateText(h.everyStep.perBug),
      rateText(h.everyStep.chain),
      h.costPerChain === null ? '-' : `$${h.costPerChain.toFixed(2)} (${h.chainsWithCost} chains)`,
      h.peakContextPerChain === null
        ? '-'
        : `${(h.peakContextPerChain / 1000).toFixed(1)}k (${h.chainsWithContext} chains)`,
    ]);
  out.push({
    title: 'beside it, every step graded (no scoring rule), with cost and peak context per chain',
    rows: every,
  });
  for (const h of report.headline)
    if (h.vsOracle)
      out.push({
        text: `McNemar (${h.source}, steps judged in both modes): ${h.vsOracle.paired.onlyA} resolved only under Oracle, ${h.vsOracle.paired.onlyB} only under Seq, exact p = ${h.vsOracle.paired.p.toPrecision(3)}`,
      });
  if (report.chainErrorShares.length) {
    const share = [
      [
        'source',
        'position',
        'chain errors / Seq failures',
        'no Oracle verdict',
        'overshoot',
        'undershoot',
        'other',
        'broke-working-code',
        'left-bug-unfixed',
        'no-usable-patch',
      ],
    ];
    for (const s of report.chainErrorShares)
      share.push([
        s.source,
        s.position === 0 ? '>= 2' : String(s.position),
        rateText(s.share),
        String(s.unpaired),
        String(s.causes.overshoot),
        String(s.causes.undershoot),
        String(s.causes.other),
        String(s.fingerprints['broke-working-code']),
        String(s.fingerprints['left-bug-unfixed']),
        String(s.fingerprints['no-usable-patch']),
      ]);
    out.push({
      title: 'chain-error share of downstream Seq failures, causes and how they show (ChainSWE §5.3, Fig. 4a-b)',
      rows: share,
    });
  }
  const lengths = [...new Set(report.lengthPositions.map((r) => r.length))];
  for (const length of lengths) {
    const rows = report.lengthPositions.filter((r) => r.length === length);
    const t = [['source', 'mode', 'position', 'every step graded', 'vs Oracle', 'scored until first unresolved']];
    for (const r of rows)
      t.push([
        r.source,
        r.mode,
        String(r.position),
        rateText(r.everyStep),
        r.mode === 'oracle' ? '' : `${relativeText(r.relative)} (${pointsText(r.absolute)})`,
        rateText(r.scored),
      ]);
    out.push({
      title: `by position, chains of length ${length} only (${rows[0].chains} chains; ChainSWE Tables 3-4)`,
      rows: t,
    });
  }
  for (const by of ['dataset-source', 'repository'] as const) {
    const rows = report.breakdowns.filter((r) => r.by === by);
    if (!rows.length) continue;
    const t = [
      [
        by === 'repository' ? 'repository' : 'dataset source',
        'chains',
        'bugs',
        'source',
        'mode',
        'per-bug',
        'chain',
        'per-bug (every step)',
      ],
    ];
    for (const r of rows)
      t.push([
        r.key,
        String(r.chains),
        String(r.bugs),
        r.source,
        r.mode,
        rateText(r.perBug),
        rateText(r.chain),
        pct(r.everyStepPerBug.rate),
      ]);
    out.push({
      title: `by ${by === 'repository' ? 'repository (ChainSWE Table 9)' : "dataset source, the chain's `source` (ChainSWE Table 7)"}`,
      rows: t,
    });
  }
  return out;
}

/** The verdict in a few words, for a tree item: "poisoned by step 1 (lib/b.py#1 undershoot)", "solvable". */
export function evidenceVerdict(e: NonNullable<ChainErrorRow['evidence']>): string {
  if (e.verdict !== 'poisoned') return e.verdict;
  if (e.culprits.length === 0) return 'poisoned, no single step';
  return `poisoned by ${e.culprits
    .map(
      (c) => `step ${c.position}${c.hunks.length ? ` (${c.hunks.map((h) => `${h.hunk} ${h.kind}`).join(', ')})` : ''}`,
    )
    .join(', ')}`;
}

/** "poisoned by step 1's hunks invoicekit/parse.py#2 (overshoot)", "solvable", ... */
export function evidenceText(e: NonNullable<ChainErrorRow['evidence']>): string {
  if (e.verdict === 'solvable') return 'solvable: gold passes on the Seq start state (the solver failed on it)';
  if (e.verdict === 'inconclusive') return 'inconclusive: gold on the Seq start state got no verdict';
  if (e.culprits.length === 0)
    return 'poisoned: gold fails on the Seq start state; no single earlier step replaced by gold fixes it';
  return `poisoned by ${e.culprits
    .map(
      (c) =>
        `step ${c.position}` +
        (c.hunks.length
          ? `'s hunk${c.hunks.length > 1 ? 's' : ''} ${c.hunks.map((h) => `${h.hunk} (${h.kind})`).join(', ')}`
          : ' (no single hunk)'),
    )
    .join('; ')}`;
}

export function chainsweText(report: BatchReport): string[] {
  return chainsweSections(report).flatMap((s) => ('text' in s ? [s.text, ''] : [`${s.title}:`, textTable(s.rows), '']));
}
