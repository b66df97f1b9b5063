import { DRIFT_LABELS, type DriftLabel } from '../../protocol/labels';
import type { Agreement } from './agreement';

const SHORT: Record<DriftLabel, string> = {
  EQUIVALENT: 'EQ',
  STYLE: 'ST',
  ALGORITHM: 'AL',
  'INPUT GATING': 'IG',
  'SILENT FALLBACK': 'SF',
  'ERROR HANDLING': 'EH',
  'RETURN SHAPE': 'RS',
  'EXTERNAL EFFECTS': 'EE',
  'EXTRA EDITS': 'XE',
  INCOMPLETE: 'IN',
};

const fmt = (x: number | null) => (x === null ? 'undefined' : x.toFixed(3));

/** Kappa, n and the confusion table (only labels either side used) as plain text. */
export function formatAgreement(a: Agreement, nameA: string, nameB: string): string {
  const used = DRIFT_LABELS.filter((l) => a.pairs.some((p) => p.a === l || p.b === l));
  const lines = [
    `Cohen's kappa: ${fmt(a.kappa)}  (n = ${a.n} targets labelled in both; ${a.onlyA} only in ${nameA}, ${a.onlyB} only in ${nameB})`,
    `observed agreement ${fmt(a.observed)}, chance agreement ${fmt(a.expected)}; kappa on groups A/B/C/D: ${fmt(a.groupKappa.kappa)}`,
  ];
  if (a.kappa === null && a.n > 0)
    lines.push('(kappa is undefined when both sides use one and the same label throughout)');
  if (used.length > 0) {
    lines.push('', `confusion: rows ${nameA}, columns ${nameB}`);
    const w = 4;
    lines.push(`${''.padEnd(w)}${used.map((l) => SHORT[l].padStart(w)).join('')}`);
    for (const r of used)
      lines.push(`${SHORT[r].padEnd(w)}${used.map((c) => String(a.confusion[r][c]).padStart(w)).join('')}`);
    lines.push('', used.map((l) => `${SHORT[l]} = ${l}`).join(', '));
  }
  return lines.join('\n');
}
