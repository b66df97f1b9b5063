// The comparisons across agents a SWE-CI batch report draws (Obs. 4, 6, Fig. 5, B.2, B.3), on
// records whose numbers are worked out by hand below.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pearson, sweciBatchReport } from '../../../src/core/sweci/observations';
import type { SweciRecord, SweciTestRun } from '../../../src/protocol/sweci';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `tests/t.py::t${i}`);
const run = (passed: string[]): SweciTestRun => ({
  commit: 'c'.repeat(40),
  passed,
  failed: [],
  exitCode: 1,
  usable: true,
  problem: null,
  logPath: '/dev/null',
  evaluatedAt: '2026-01-01T00:00:00.000Z',
  durationS: 1,
});
/** A task with p0 = 2 and p* = 6 (tests t0..t5), limit 5, and the given passing sets per iteration. */
function record(taskId: string, iterations: string[][], stopped: 'gap-closed' | 'limit' | null = null): SweciRecord {
  let before = ids(2);
  return {
    schema: 1,
    runId: `seq-${taskId}`,
    task: {
      taskId,
      split: 'default',
      datasetDir: '/d',
      currentSha: 'a'.repeat(40),
      targetSha: 'b'.repeat(40),
      expectedGap: 4,
      image: 'img',
      testCmd: 'pytest',
      baseCommit: 'base',
      initial: run(ids(2)),
      oracle: run(ids(6)),
      limit: 5,
      timeoutS: 60,
    },
    iterations: iterations.map((passed, k) => {
      const regressions = before.filter((t) => !passed.includes(t));
      before = passed;
      return { iteration: k + 1, run: run(passed), regressions, gap: [], architect: null, programmer: null };
    }),
    stopped,
  };
}

test('per agent: mean EvoScore, turns, rankings by γ, regressions by iteration and cumulative-best bins', () => {
  const t = ids(6);
  const runs = [
    // a/x: 4 6 (gap closed after 2): NC 0.5 1 1 1 1 -> EvoScore 0.9; no regression.
    { agent: 'a', record: record('x', [t.slice(0, 4), t], 'gap-closed') },
    // a/y: iteration 1 breaks t1 (passing {t0, t2}), then 3, 3, 3, 3: NC 0 .25 .25 .25 .25 -> 0.2.
    {
      agent: 'a',
      record: record('y', [[t[0], t[2]], t.slice(0, 3), t.slice(0, 3), t.slice(0, 3), t.slice(0, 3)], 'limit'),
    },
    // b/x: early gain, then a loss: 6 6 6 2 2 -> NC 1 1 1 0 0 -> 0.6 at γ = 1, less at γ > 1.
    {
      agent: 'b',
      record: record('x', [t, t, t, t.slice(0, 2), t.slice(0, 2)], 'limit'),
      lines: { agent: 7, human: 20 },
    },
  ];
  const r = sweciBatchReport(runs, 1);
  const a = r.agents.find((s) => s.agent === 'a')!;
  const b = r.agents.find((s) => s.agent === 'b')!;
  assert.ok(Math.abs(a.meanEvoScore - (0.9 + 0.2) / 2) < 1e-12);
  assert.ok(Math.abs(b.meanEvoScore - 0.6) < 1e-12);
  assert.equal(a.averageTurns, (2 + 5) / 2);
  assert.equal(a.zeroRegressionRate, 0.5);
  // At γ = 0.8 b's early states weigh more: b 2.44/3.3616 = 0.7259 > a; at 1.2 a leads.
  assert.deepEqual(r.rankings.find((x) => x.gamma === 0.8)!.agents, ['b', 'a']);
  assert.deepEqual(r.rankings.find((x) => x.gamma === 1.2)!.agents, ['a', 'b']);
  // a: iteration 1 graded on 2 tasks, one broke 1 test; iterations 3-5 only on y, none broke.
  assert.deepEqual(
    r.regressions.filter((p) => p.agent === 'a').map((p) => [p.iteration, p.graded, p.rate, p.magnitude]),
    [
      [1, 2, 0.5, 1],
      [2, 2, 0, 0],
      [3, 1, 0, 0],
      [4, 1, 0, 0],
      [5, 1, 0, 0],
    ],
  );
  // b broke 4 tests at iteration 4 only.
  assert.deepEqual(
    r.regressions.filter((p) => p.agent === 'b').map((p) => p.rate),
    [0, 0, 0, 1, 0],
  );
  // Bins 1-4 and 5-5: a's best 1 (x) and 0.25 (y); b's 1.
  assert.deepEqual(r.cumulativeBest.find((c) => c.agent === 'a')!.bins, [
    { from: 1, to: 4, meanBest: 0.625 },
    { from: 5, to: 5, meanBest: 0.625 },
  ]);
  assert.deepEqual(r.linesChanged, [{ agent: 'b', taskId: 'x', solved: true, agentLines: 7, humanLines: 20 }]);
});

test('Pearson r: perfect lines, no spread, too few points', () => {
  assert.equal(pearson([1, 2, 3], [2, 4, 6]), 1);
  assert.ok(Math.abs(pearson([1, 2, 3, 4], [4, 3, 2, 1])! + 1) < 1e-12);
  assert.equal(pearson([1, 2, 3], [5, 5, 5]), null);
  assert.equal(pearson([1, 2], [1, 2]), null);
});
