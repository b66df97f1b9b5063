// Reference values computed with scipy 1.17.1 / numpy 2.4.6 (Python 3.11):
//   scipy.stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method='wilson')
//   scipy.stats.binomtest(b, b + c, 0.5).pvalue            (exact McNemar, two-sided)
//   numpy.median / numpy.percentile(x, 25 | 75)              (linear interpolation)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mcnemarExact, pairedTable, quantile, spread, wilsonInterval } from '../../../src/core/stats';

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} != ${expected}`);

const WILSON: [number, number, number, number][] = [
  [0, 10, 0.0, 0.27753279986288926],
  [1, 10, 0.017876213095072896, 0.4041500267952385],
  [5, 10, 0.236593090512564, 0.7634069094874361],
  [10, 10, 0.7224672001371109, 1.0],
  [7, 23, 0.15604024453214022, 0.508657562687592],
  [3, 3, 0.4385029682449546, 1.0],
  [0, 1, 0.0, 0.7934506856227626],
  [48, 50, 0.8653990931249297, 0.9889611156723802],
  [1, 1000, 0.00017654637062607809, 0.0056425585979579355],
];

test('Wilson 95% intervals equal scipy binomtest(...).proportion_ci(method="wilson")', () => {
  for (const [k, n, low, high] of WILSON) {
    const p = wilsonInterval(k, n);
    close(p.low, low, `low ${k}/${n}`);
    close(p.high, high, `high ${k}/${n}`);
    assert.equal(p.rate, k / n);
  }
});

test('a rate over no tasks is NaN, not 0; impossible counts are refused', () => {
  assert.ok(Number.isNaN(wilsonInterval(0, 0).rate));
  assert.throws(() => wilsonInterval(3, 2), RangeError);
  assert.throws(() => wilsonInterval(-1, 2), RangeError);
  assert.throws(() => wilsonInterval(0.5, 2), RangeError);
});

const MCNEMAR: [number, number, number][] = [
  [0, 0, 1.0],
  [1, 0, 1.0],
  [3, 1, 0.625],
  [10, 2, 0.03857421875],
  [5, 5, 1.0],
  [0, 7, 0.015625],
  [12, 30, 0.007915897334896727],
  [1, 2, 1.0],
];

test('exact McNemar p-values equal scipy binomtest(b, b + c, 0.5).pvalue', () => {
  for (const [b, c, p] of MCNEMAR) {
    close(mcnemarExact(b, c), p, `mcnemar ${b},${c}`);
    close(mcnemarExact(c, b), p, `mcnemar ${c},${b} (symmetric)`);
  }
});

test('McNemar stays finite for thousands of discordant pairs (no underflow to 0 or NaN)', () => {
  const p = mcnemarExact(1500, 1600);
  assert.ok(p > 0 && p < 1, String(p));
  assert.equal(mcnemarExact(2000, 2000), 1);
});

test('pairedTable counts both / only A / only B / neither', () => {
  assert.deepEqual(
    pairedTable([
      [true, true],
      [true, false],
      [true, false],
      [false, true],
      [false, false],
    ]),
    { both: 1, onlyA: 2, onlyB: 1, neither: 1 },
  );
});

const QUANTILES: [number[], number, number, number][] = [
  [[1, 2, 3, 4], 2.5, 1.75, 3.25],
  [[5], 5, 5, 5],
  [[3, 1, 2], 2, 1.5, 2.5],
  [[1, 2, 3, 4, 5, 6, 7, 8, 9, 100], 5.5, 3.25, 7.75],
  [[2.5, 0.5, 10, 7, 7], 7, 2.5, 7],
];

test('median and quartiles equal numpy.median / numpy.percentile (linear)', () => {
  for (const [values, median, q1, q3] of QUANTILES) {
    const s = spread(values);
    close(s.median, median, `median ${values}`);
    close(s.q1, q1, `q1 ${values}`);
    close(s.q3, q3, `q3 ${values}`);
  }
  assert.ok(Number.isNaN(quantile([], 0.5)));
  assert.throws(() => quantile([1], 1.5), RangeError);
});
