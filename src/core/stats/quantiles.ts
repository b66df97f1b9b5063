/**
 * Quantiles by linear interpolation between order statistics (R's type 7, numpy's default), so a
 * median or IQR printed here matches what a researcher recomputes in R or numpy.
 */
export function quantile(values: readonly number[], q: number): number {
  if (q < 0 || q > 1 || Number.isNaN(q)) throw new RangeError(`quantile: q must be in [0, 1], got ${q}`);
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export interface Spread {
  readonly n: number;
  readonly median: number;
  readonly q1: number;
  readonly q3: number;
}

/** Median and quartiles (the IQR is q3 - q1); NaN throughout when there are no values. */
export function spread(values: readonly number[]): Spread {
  return { n: values.length, median: quantile(values, 0.5), q1: quantile(values, 0.25), q3: quantile(values, 0.75) };
}
