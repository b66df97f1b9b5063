import type { Proportion } from '../../stats';
import type { ChainErrorRow } from '../aggregate';

/** "3/4 75.0% [30.1–95.4]": a rate with its Wilson 95% interval, as the report prints it. */
export function rateText(p: Proportion): string {
  if (p.total === 0) return '-';
  return `${p.successes}/${p.total} ${pct(p.rate)} [${pct(p.low, false)}–${pct(p.high, false)}]`;
}

export function pct(x: number, sign = true): string {
  if (Number.isNaN(x)) return '-';
  return `${(x * 100).toFixed(1)}${sign ? '%' : ''}`;
}

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
export function csvField(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' && Number.isNaN(v) ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csv(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null | undefined)[])[],
): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}

/**
 * What an empty chain-error trace means (docs/reference/batch.md, "chain errors"): the earlier
 * steps changed the same symbols as gold, differently inside them. The demo's step 1 is one: it
 * changes parse_amount like gold but reads a leading minus only, not parentheses (its drift
 * suggestion is INPUT GATING), and step 2's credit-note test needs the parentheses.
 */
export const EMPTY_TRACE =
  'no earlier overshoot/undershoot in its files: an earlier step changed the same symbols as gold, differently inside them (a partial fix; its drift suggestions say how)';
/** A relative change as the paper prints it: "−31%", "+9%", "-" when undefined. */
export function relativeText(x: number | null): string {
  if (x === null || Number.isNaN(x)) return '-';
  const r = Math.round(x * 100);
  return `${r < 0 ? '−' : '+'}${Math.abs(r)}%`;
}

/** An absolute change in percentage points: "-20.0 pts". */
export function pointsText(x: number | null): string {
  if (x === null || Number.isNaN(x)) return '-';
  return `${x >= 0 ? '+' : '-'}${Math.abs(x * 100).toFixed(1)} pts`;
}

/** The repository-resampling bootstrap interval: "[12.0–40.0]". */
export function bootstrapText(b: { low: number; high: number }): string {
  return Number.isNaN(b.low) ? '-' : `[${pct(b.low, false)}–${pct(b.high, false)}]`;
}

/** What `--repeats` found about a chain error; null when its steps were stable or not repeated. */
export function flakyText(e: Pick<ChainErrorRow, 'flakyTests' | 'unstable'>): string | null {
  if (!e.unstable && e.flakyTests.length === 0) return null;
  const tests = e.flakyTests.length ? `flaky tests: ${listed(e.flakyTests)}` : '';
  return e.unstable
    ? `NOT STABLE: the Oracle or Seq verdict changed between identical runs${tests ? `; ${tests}` : ''}`
    : `${tests} (both verdicts held in every run)`;
}

/** Up to four ids, then how many more. */
export function listed(ids: readonly string[]): string {
  return ids.length > 4 ? `${ids.slice(0, 4).join(', ')} and ${ids.length - 4} more` : ids.join(', ');
}
