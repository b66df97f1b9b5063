/**
 * Paired comparison of two conditions on the same tasks (e.g. AH vs AA on the instances both
 * have): the 2x2 table of outcomes and the exact McNemar test, a two-sided binomial test of the
 * discordant pairs against p = 1/2 (docs/reference/metrics.md).
 */
export interface PairedTable {
  readonly both: number;
  readonly onlyA: number;
  readonly onlyB: number;
  readonly neither: number;
}

export function pairedTable(pairs: Iterable<readonly [boolean, boolean]>): PairedTable {
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  for (const [a, b] of pairs) {
    if (a && b) both++;
    else if (a) onlyA++;
    else if (b) onlyB++;
    else neither++;
  }
  return { both, onlyA, onlyB, neither };
}

/**
 * Exact two-sided p-value: 2 * P(X <= min(b, c)) for X ~ Binomial(b + c, 1/2), capped at 1; 1 when
 * there are no discordant pairs. Summed in log space so thousands of pairs do not underflow.
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
  if (!Number.isInteger(onlyA) || !Number.isInteger(onlyB) || onlyA < 0 || onlyB < 0)
    throw new RangeError(`mcnemarExact: need non-negative integer counts, got ${onlyA} and ${onlyB}`);
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  const k = Math.min(onlyA, onlyB);
  let logTerm = -n * Math.LN2; // log C(n, 0) / 2^n
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    tail += Math.exp(logTerm);
    logTerm += Math.log(n - i) - Math.log(i + 1);
  }
  return Math.min(1, 2 * tail);
}
