// SWE-CI's metrics (docs/sweci.md): Normalized Change of one state, EvoScore over a trajectory,
// regressions, zero-regression and solved. Pure: passing-test counts and sets in, numbers out.

/** The γ values SWE-CI's sensitivity analysis reports (0.8 weighs early states more, 1.2 later ones). */
export const SENSITIVITY_GAMMAS: readonly number[] = [0.8, 0.9, 1.0, 1.1, 1.2];

/** SWE-CI's iteration limit (its `max_epoch`). */
export const DEFAULT_ITERATION_LIMIT = 20;

/**
 * Normalized Change a(c) of a state passing `p` tests, for a task whose base passes `p0` and whose
 * oracle passes `pStar`: (p − p0)/(p* − p0) at or above the base, (p − p0)/p0 below it. The two
 * degenerate denominators are settled as SWE-CI's summarize.py settles them: above a base that
 * already equals the oracle counts as 1, below a base of 0 (impossible once clamped) as −1.
 */
export function normalizedChange(p: number, p0: number, pStar: number): number {
  if (p > p0) return pStar - p0 > 0 ? (p - p0) / (pStar - p0) : 1;
  if (p < p0) return p0 > 0 ? (p - p0) / p0 : -1;
  return 0;
}

/**
 * The passing counts SWE-CI scores: each clamped into [0, p*], and the trajectory padded to
 * `limit` iterations with its last count (a loop that stopped early, gap closed, keeps its last
 * state), or cut to `limit`. An empty trajectory is padded with p0.
 */
export function scoredCounts(counts: readonly number[], p0: number, pStar: number, limit: number): number[] {
  const clamped = counts.map((p) => Math.min(Math.max(0, p), pStar));
  if (clamped.length >= limit) return clamped.slice(0, limit);
  const fill = clamped.length ? clamped[clamped.length - 1] : p0;
  return [...clamped, ...Array.from({ length: limit - clamped.length }, () => fill)];
}

/**
 * EvoScore e = Σ γ^i a(c_i) / Σ γ^i over iterations i = 1..N. γ = 1 is the mean Normalized
 * Change (SWE-CI's ANC for one task); γ > 1 weighs later states more.
 */
export function evoScore(changes: readonly number[], gamma: number): number {
  if (!(gamma > 0)) throw new RangeError(`γ must be positive, not ${gamma}`);
  if (!changes.length) return 0;
  let weighted = 0;
  let weights = 0;
  let w = 1;
  for (const a of changes) {
    w *= gamma;
    weighted += w * a;
    weights += w;
  }
  return weighted / weights;
}

/** Tests that passed in the state before and do not pass now, in a stable (sorted) order. */
export function regressionsBetween(before: Iterable<string>, now: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const t of before) if (!now.has(t)) out.push(t);
  return out.sort();
}

/** Tests the oracle passes that `passing` does not: SWE-CI's test gap, sorted. */
export function testGap(oraclePassed: Iterable<string>, passing: ReadonlySet<string>): string[] {
  return regressionsBetween(oraclePassed, passing);
}
