import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aggregateScores, scoreTask } from '../../../src/core/sweci';
import type { SweciRecord, SweciTestRun } from '../../../src/protocol/sweci';

function run(passed: string[], usable = true): SweciTestRun {
  return {
    commit: 'c'.repeat(40),
    passed,
    failed: [],
    exitCode: usable ? 1 : 2,
    usable,
    problem: usable ? null : 'pytest exit code 2',
    logPath: '/dev/null',
    evaluatedAt: '2026-01-01T00:00:00.000Z',
    durationS: 1,
  };
}

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `tests/t.py::t${from + i}`);

function record(iterations: { passed: string[]; regressions?: string[]; usable?: boolean }[], limit = 4): SweciRecord {
  return {
    schema: 1,
    runId: 'seq-1',
    task: {
      taskId: 'demo',
      split: 'default',
      datasetDir: '/d',
      currentSha: 'a'.repeat(40),
      targetSha: 'b'.repeat(40),
      expectedGap: 4,
      image: 'img',
      testCmd: 'pytest',
      baseCommit: 'c'.repeat(40),
      initial: run(ids(2)),
      oracle: run(ids(6)),
      limit,
      timeoutS: 60,
    },
    iterations: iterations.map((it, i) => ({
      iteration: i + 1,
      run: run(it.passed, it.usable ?? true),
      regressions: it.regressions ?? [],
      gap: [],
      architect: null,
      programmer: null,
    })),
    stopped: null,
  };
}

test('one task: NC per iteration, EvoScore at γ = 1 and 1.2, a regression, solved (hand-computed)', () => {
  // p0 = 2, p* = 6; counts 4, 3, 1, 6 -> NC 0.5, 0.25, -0.5, 1
  const r = record([
    { passed: ids(4) },
    { passed: ids(3), regressions: ['tests/t.py::t3'] },
    { passed: ids(1), regressions: ['tests/t.py::t1', 'tests/t.py::t2'] },
    { passed: ids(6) },
  ]);
  const s = scoreTask(r, 1.2);
  assert.deepEqual(s.normalizedChanges, [0.5, 0.25, -0.5, 1]);
  // weights 1.2, 1.44, 1.728, 2.0736 (sum 6.4416); 0.6 + 0.36 - 0.864 + 2.0736 = 2.1696
  assert.ok(Math.abs(s.evoScore - 2.1696 / 6.4416) < 1e-12);
  assert.equal(s.evoScores.find((e) => e.gamma === 1)?.evoScore, 0.3125);
  assert.deepEqual(
    s.evoScores.map((e) => e.gamma),
    [0.8, 0.9, 1, 1.1, 1.2],
  );
  assert.equal(s.zeroRegression, false);
  assert.equal(s.countNeverDrops, false);
  assert.equal(s.solved, true);
  assert.deepEqual(s.regressions, [
    { iteration: 2, tests: ['tests/t.py::t3'] },
    { iteration: 3, tests: ['tests/t.py::t1', 'tests/t.py::t2'] },
  ]);
});

test('a loop stopped early keeps its last state for the remaining iterations; unusable runs count 0', () => {
  const early = scoreTask(record([{ passed: ids(4) }, { passed: ids(6) }], 4));
  // 4, 6, then padded 6, 6 -> 0.5, 1, 1, 1
  assert.equal(early.evoScore, 0.875);
  assert.equal(early.zeroRegression, true);
  assert.equal(early.countNeverDrops, true);
  const broken = scoreTask(record([{ passed: ids(4), usable: false }], 2));
  assert.deepEqual(broken.counts, [0]);
  assert.deepEqual(broken.normalizedChanges, [-1, -1]);
  assert.equal(broken.solved, false);
});

test('a set-based regression with an unchanged count: zero-regression fails, the count check does not', () => {
  // Same count (3) at iteration 2, but t2 broke and t4 was fixed.
  const swapped = ['tests/t.py::t0', 'tests/t.py::t1', 'tests/t.py::t4'];
  const s = scoreTask(record([{ passed: ids(3) }, { passed: swapped, regressions: ['tests/t.py::t2'] }], 2));
  assert.equal(s.zeroRegression, false);
  assert.equal(s.countNeverDrops, true);
});

test('across tasks: mean EvoScore per γ, zero-regression and solved rates', () => {
  const a = scoreTask(record([{ passed: ids(6) }], 2)); // 1, 1 -> 1; solved, no regression
  const b = scoreTask(record([{ passed: ids(1), regressions: ['tests/t.py::t1'] }], 2)); // -0.5, -0.5
  const agg = aggregateScores([a, b]);
  assert.equal(agg.tasks, 2);
  assert.equal(agg.meanEvoScore, 0.25);
  assert.equal(agg.zeroRegressionRate, 0.5);
  assert.equal(agg.solvedRate, 0.5);
  assert.equal(agg.sensitivity.length, 5);
  assert.ok(agg.sensitivity.every((e) => e.meanEvoScore === 0.25)); // constant trajectories: γ does not matter
});
