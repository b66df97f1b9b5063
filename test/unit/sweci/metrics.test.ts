import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evoScore, normalizedChange, regressionsBetween, scoredCounts, testGap } from '../../../src/core/sweci';

// Values worked out by hand (docs/sweci.md): p0 = 2, p* = 6.
test('normalized change: progress over the gap above the base, loss over the base below it', () => {
  assert.equal(normalizedChange(4, 2, 6), 0.5); // (4-2)/(6-2)
  assert.equal(normalizedChange(6, 2, 6), 1);
  assert.equal(normalizedChange(2, 2, 6), 0);
  assert.equal(normalizedChange(1, 2, 6), -0.5); // (1-2)/2
  assert.equal(normalizedChange(0, 2, 6), -1);
});

test('normalized change: the degenerate denominators settled as SWE-CI summarize.py does', () => {
  assert.equal(normalizedChange(3, 3, 3), 0);
  assert.equal(normalizedChange(4, 3, 3), 1); // above a base that already equals the oracle
  assert.equal(normalizedChange(-1, 0, 5), -1); // below a base of 0
});

test('scored counts: clamped into [0, p*], padded with the last count to the limit, cut beyond it', () => {
  assert.deepEqual(scoredCounts([4, 7], 2, 6, 4), [4, 6, 6, 6]);
  assert.deepEqual(scoredCounts([], 2, 6, 3), [2, 2, 2]);
  assert.deepEqual(scoredCounts([1, 2, 3, 4], 2, 6, 2), [1, 2]);
  assert.deepEqual(scoredCounts([-3], 2, 6, 1), [0]);
});

test('EvoScore: γ = 1 is the mean; γ = 2 and γ = 0.5 weigh late and early states (hand-computed)', () => {
  const a = [0.5, 0.25, -0.5, 1];
  assert.equal(evoScore(a, 1), 0.3125); // 1.25 / 4
  // weights 2, 4, 8, 16 (sum 30): 1 + 1 - 4 + 16 = 14
  assert.ok(Math.abs(evoScore(a, 2) - 14 / 30) < 1e-12);
  // weights 1/2, 1/4, 1/8, 1/16 (sum 15/16): 1/4 + 1/16 - 1/16 + 1/16 = 5/16
  assert.ok(Math.abs(evoScore(a, 0.5) - 1 / 3) < 1e-12);
  assert.throws(() => evoScore(a, 0), /γ must be positive/);
  assert.equal(evoScore([], 1.2), 0);
});

test('regressions and the gap are named and sorted', () => {
  assert.deepEqual(regressionsBetween(['t::b', 't::a', 't::c'], new Set(['t::c'])), ['t::a', 't::b']);
  assert.deepEqual(testGap(['t::z', 't::y'], new Set(['t::z'])), ['t::y']);
  assert.deepEqual(regressionsBetween([], new Set()), []);
});
