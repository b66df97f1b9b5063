// A subset of a chain's steps (`eval --steps 2` on a 3-step chain) never claims the full chain,
// and chain errors are judged by position in the chain, not by the step's order number (ChainSWE
// orders need not start at 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns } from '../../../src/core/metrics/compareRuns';
import { chainReport, isSubset } from '../../../src/core/metrics/chainReport';
import { fullChainVerdict } from '../../../src/cli/commands/evalRun';
import type { StepEvaluation } from '../../../src/protocol/evaluation';
import type { RunMode } from '../../../src/protocol/run';

function step(order: number, resolved: boolean): StepEvaluation {
  const bucket = resolved ? { success: ['t'], failure: [] } : { success: [], failure: ['t'] };
  return {
    order,
    instance_id: `r__r-${order}`,
    status: resolved ? 'resolved' : 'unresolved',
    resolved,
    patch_applied: true,
    error: null,
    error_kind: null,
    tests_status: { FAIL_TO_PASS: bucket, PASS_TO_PASS: { success: ['p'], failure: [] } },
    status_map: {},
    log_path: 'l',
    report_path: 'r',
    duration_s: 1,
    source: 'submitted',
    commit: '0'.repeat(40),
    image: 'img',
    evaluated_at: '2025-01-01T00:00:00Z',
  };
}

const report = (mode: RunMode, steps: StepEvaluation[], chainOrders?: number[]) =>
  chainReport({ chainId: 'c', runId: mode, mode, profile: 'swebench-v5', steps, chainOrders });

test('eval --steps 2 of a 3-step chain, resolved: a subset, no full-chain verdict', () => {
  const r = report('seq', [step(2, true)], [1, 2, 3]);
  assert.equal(r.full_chain_resolved, false);
  assert.equal(isSubset(r), true);
  assert.equal(fullChainVerdict(r), 'steps 2 of 3 evaluated (a subset): no full-chain verdict');
  assert.doesNotMatch(fullChainVerdict(r), /full chain resolved/);
});

test('every step evaluated and resolved: the full chain is resolved', () => {
  const r = report('seq', [step(1, true), step(2, true), step(3, true)], [1, 2, 3]);
  assert.equal(r.full_chain_resolved, true);
  assert.equal(fullChainVerdict(r), 'full chain resolved');
});

test('a chain whose orders start at 10: its first step (position 1) is never a chain error', () => {
  const c = compareRuns(
    report('oracle', [step(10, true), step(11, true)], [10, 11]),
    report('seq', [step(10, false), step(11, false)], [10, 11]),
  );
  assert.deepEqual(c.chainErrors, [11]);
});

test('a subset report starting at step 2 still knows step 2 is position 2', () => {
  const c = compareRuns(report('oracle', [step(2, true)], [1, 2, 3]), report('seq', [step(2, false)], [1, 2, 3]));
  assert.deepEqual(c.chainErrors, [2]);
  assert.equal(c.seq.subset, true);
});
