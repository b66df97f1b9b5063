// Which state a SWE-CI iteration starts from after a discarded one, and what counts as a change
// to the task's tests.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  lastKeptCommit,
  pathsOfDiff,
  policiesOf,
  startingRun,
  testPathChanges,
} from '../../../src/core/sweci/policies';
import type { SweciIteration, SweciRecord, SweciTestRun } from '../../../src/protocol/sweci';

const run = (commit: string, passed: string[], usable = true): SweciTestRun => ({
  commit,
  passed,
  failed: [],
  exitCode: usable ? 0 : 2,
  usable,
  problem: usable ? null : 'pytest ended with exit code 2',
  logPath: '/dev/null',
  evaluatedAt: '2026-01-01T00:00:00.000Z',
  durationS: 1,
});
const it = (iteration: number, r: SweciTestRun, discarded = false): SweciIteration => ({
  iteration,
  run: r,
  regressions: [],
  gap: [],
  architect: null,
  programmer: null,
  ...(discarded ? { discarded: { restoredFrom: 'x', restoredAs: 'y' } } : {}),
});
const record = (iterations: SweciIteration[]): SweciRecord =>
  ({
    schema: 1,
    runId: 'seq-1',
    task: { baseCommit: 'base', initial: run('base', ['a']) },
    iterations,
    stopped: null,
  }) as unknown as SweciRecord;

test('after discarded iterations the next starts from the last kept one, or the base', () => {
  const kept = run('k1', ['a', 'b']);
  const r = record([it(1, kept), it(2, run('d2', [], false), true), it(3, run('d3', [], false), true)]);
  assert.equal(startingRun(r), kept);
  assert.equal(lastKeptCommit(r), 'k1');
  const none = record([it(1, run('d1', [], false), true)]);
  assert.deepEqual(startingRun(none).passed, ['a']);
  assert.equal(lastKeptCommit(none), 'base');
  // Kept (policy keep): the failed run's state is where the next iteration starts.
  const keep = record([it(1, kept), it(2, run('f2', [], false))]);
  assert.equal(startingRun(keep).commit, 'f2');
});

test('bytecode caches are not a change to the tests; the defaults are the harness`s', () => {
  assert.deepEqual(
    testPathChanges([
      'tests/test_a.py',
      'tests/__pycache__/test_a.cpython-311.pyc',
      'tests/x.pyc',
      'tests/conftest.py',
    ]),
    ['tests/conftest.py', 'tests/test_a.py'],
  );
  assert.deepEqual(
    pathsOfDiff('diff --git a/tests/a.py b/tests/a.py\n--- a\n+++ b\ndiff --git a/tests/new.py b/tests/new.py\n'),
    ['tests/a.py', 'tests/new.py'],
  );
  assert.deepEqual(policiesOf({ policies: { failedRun: 'keep' } } as never), {
    failedRun: 'keep',
    testChanges: 'reset',
    requirement: 'appendix-c',
  });
});
