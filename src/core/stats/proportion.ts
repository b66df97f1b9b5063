/**
 * A rate with its Wilson score interval: the interval studies of resolve rates report, because it
 * stays inside [0, 1] and behaves at 0 and n successes, where the normal approximation does not
 * (docs/reference/metrics.md).
 */
export interface Proportion {
  readonly successes: number;
  readonly total: number;
  /** successes / total; NaN when total is 0 (no data is not a rate of 0). */
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** The 0.975 quantile of the standard normal: a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

export function wilsonInterval(successes: number, total: number, z = Z_95): Proportion {
  if (!Number.isInteger(successes) || !Number.isInteger(total) || successes < 0 || total < 0 || successes > total)
    throw new RangeError(`wilsonInterval: need integers 0 <= successes <= total, got ${successes}/${total}`);
  if (total === 0) return { successes, total, rate: NaN, low: NaN, high: NaN };
  const p = successes / total;
  const z2 = z * z;
  const denominator = 1 + z2 / total;
  const centre = (p + z2 / (2 * total)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total))) / denominator;
  // At 0 and n successes the bound is exactly 0 or 1; floating point would leave ±1e-17.
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === total ? 1 : Math.min(1, centre + half);
  return { successes, total, rate: p, low, high };
}
