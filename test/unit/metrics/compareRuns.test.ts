// Oracle vs Seq comparison of one chain (docs/reference/metrics.md): chain errors, failure
// fingerprints, per-bug and full-chain rates. These numbers are study results, so every branch
// is pinned. Mutations checked (applied by hand, tests seen failing, reverted):
// `o.resolved && !s.resolved` -> `o.resolved !== s.resolved` and the position-1 guard removed, in
// compareRuns; each fingerprint branch reordered or dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, fingerprint } from '../../../src/core/metrics/compareRuns';
import { chainReport } from '../../../src/core/metrics/chainReport';
import type { ChainEvaluation, StepEvaluation } from '../../../src/protocol/evaluation';
import type { RunMode } from '../../../src/protocol/run';

type Outcome = 'resolved' | 'left-bug' | 'broke' | 'empty' | 'error';

const bucket = (success: string[], failure: string[]) => ({ success, failure });

function step(order: number, outcome: Outcome): StepEvaluation {
  const resolved = outcome === 'resolved';
  const status: StepEvaluation['status'] =
    outcome === 'empty' ? 'empty_patch' : outcome === 'error' ? 'error' : resolved ? 'resolved' : 'unresolved';
  return {
    order,
    instance_id: `repo__repo-${order}`,
    status,
    resolved,
    patch_applied: outcome !== 'empty' && outcome !== 'error',
    error: outcome === 'error' ? "The step's changes did not apply." : null,
    error_kind: outcome === 'error' ? 'patch' : null,
    tests_status: {
      FAIL_TO_PASS: outcome === 'left-bug' || outcome === 'broke' ? bucket([], ['t::f2p']) : bucket(['t::f2p'], []),
      PASS_TO_PASS: outcome === 'broke' ? bucket([], ['t::p2p']) : bucket(['t::p2p'], []),
    },
    status_map: {},
    log_path: `logs/${order}.log`,
    report_path: `logs/${order}.json`,
    duration_s: 1,
    source: 'submitted',
    commit: '0'.repeat(40),
    image: 'img',
    evaluated_at: '2025-01-01T00:00:00Z',
  };
}

const report = (mode: RunMode, outcomes: Outcome[], chainId = 'chain-1'): ChainEvaluation =>
  chainReport({
    chainId,
    runId: `${mode}-run`,
    mode,
    profile: 'swebench-v5',
    steps: outcomes.map((o, i) => step(i + 1, o)),
  });

test('a chain error is a bug resolved under Oracle and not under Seq, from position 2 on', () => {
  const c = compareRuns(
    report('oracle', ['resolved', 'resolved', 'left-bug', 'resolved', 'resolved']),
    report('seq', ['resolved', 'broke', 'resolved', 'empty', 'resolved']),
  );
  assert.deepEqual(c.chainErrors, [2, 4]);
  assert.deepEqual(
    c.positions.map((p) => p.chainError),
    [false, true, false, true, false],
  );
});

test('Seq resolved where Oracle was not is no chain error (mutation: o.resolved !== s.resolved)', () => {
  const c = compareRuns(
    report('oracle', ['resolved', 'left-bug', 'error']),
    report('seq', ['resolved', 'resolved', 'resolved']),
  );
  assert.deepEqual(c.chainErrors, []);
  assert.ok(c.positions.every((p) => !p.chainError));
});

test('position 1 is never a chain error: both modes start it at base_commit', () => {
  const c = compareRuns(report('oracle', ['resolved', 'resolved']), report('seq', ['broke', 'resolved']));
  assert.equal(c.positions[0].chainError, false);
  assert.deepEqual(c.chainErrors, []);
  // It is still a failure, fingerprinted as usual.
  assert.equal(c.positions[0].seqFingerprint, 'broke-working-code');
});

test('rates and full-chain success of each side; positions only where both reports have the step', () => {
  const oracle = report('oracle', ['resolved', 'resolved', 'resolved', 'resolved']);
  const seq = report('seq', ['resolved', 'left-bug', 'resolved']);
  const c = compareRuns(oracle, seq);
  assert.deepEqual(c.oracle, {
    mode: 'oracle',
    runId: 'oracle-run',
    resolved: 4,
    total: 4,
    rate: 1,
    fullChain: true,
    subset: false,
  });
  assert.deepEqual(c.seq, {
    mode: 'seq',
    runId: 'seq-run',
    resolved: 2,
    total: 3,
    rate: 2 / 3,
    fullChain: false,
    subset: false,
  });
  assert.deepEqual(
    c.positions.map((p) => [p.order, p.instanceId, p.oracle, p.seq]),
    [
      [1, 'repo__repo-1', 'resolved', 'resolved'],
      [2, 'repo__repo-2', 'resolved', 'unresolved'],
      [3, 'repo__repo-3', 'resolved', 'resolved'],
    ],
  );
  assert.equal(c.chainId, 'chain-1');
});

test('an empty report has rate 0 and no full chain', () => {
  const empty = compareRuns(report('oracle', []), report('seq', []));
  assert.deepEqual(empty.seq, {
    mode: 'seq',
    runId: 'seq-run',
    resolved: 0,
    total: 0,
    rate: 0,
    fullChain: false,
    subset: false,
  });
  assert.deepEqual(empty.positions, []);
});

test('reports of different chains, or not Oracle then Seq, are refused with a message saying which', () => {
  assert.throws(
    () => compareRuns(report('oracle', ['resolved']), report('seq', ['resolved'], 'chain-2')),
    /the reports are of different chains \('chain-1' and 'chain-2'\)/,
  );
  assert.throws(
    () => compareRuns(report('seq', ['resolved']), report('oracle', ['resolved'])),
    /expected an Oracle report then a Seq report, got seq and oracle/,
  );
  assert.throws(
    () => compareRuns(report('oracle', ['resolved']), report('oracle', ['resolved'])),
    /got oracle and oracle/,
  );
  assert.throws(() => compareRuns(report('seq', ['resolved']), report('seq', ['resolved'])), /got seq and seq/);
  // The kind decides the exit code: a bad file is input, the wrong order of arguments is usage.
  const kindOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as { kind: string }).kind;
    }
    return 'no error';
  };
  assert.equal(
    kindOf(() => compareRuns(report('oracle', []), report('seq', [], 'chain-2'))),
    'input',
  );
  assert.equal(
    kindOf(() => compareRuns(report('seq', []), report('oracle', []))),
    'usage',
  );
});

test('fingerprints: none when resolved; no usable patch, broke working code, left the bug unfixed', () => {
  assert.equal(fingerprint(step(2, 'resolved')), null);
  assert.equal(fingerprint(step(2, 'empty')), 'no-usable-patch');
  assert.equal(fingerprint(step(2, 'error')), 'no-usable-patch');
  assert.equal(fingerprint(step(2, 'broke')), 'broke-working-code');
  assert.equal(fingerprint(step(2, 'left-bug')), 'left-bug-unfixed');
  // An error says nothing about the tests, whatever its buckets hold: no usable patch first.
  const errored = { ...step(2, 'broke'), status: 'error' as const, resolved: false };
  assert.equal(fingerprint(errored), 'no-usable-patch');
  // A P2P failure outweighs F2P failures; F2P passing with a P2P failure still broke working code.
  const p2pOnly = {
    ...step(2, 'broke'),
    tests_status: { FAIL_TO_PASS: bucket(['t::f2p'], []), PASS_TO_PASS: bucket([], ['t::p2p']) },
  };
  assert.equal(fingerprint(p2pOnly), 'broke-working-code');
});

test('compareRuns fingerprints both sides of every position', () => {
  const c = compareRuns(
    report('oracle', ['resolved', 'empty', 'left-bug']),
    report('seq', ['broke', 'resolved', 'error']),
  );
  assert.deepEqual(
    c.positions.map((p) => [p.oracleFingerprint, p.seqFingerprint]),
    [
      [null, 'broke-working-code'],
      ['no-usable-patch', null],
      ['left-bug-unfixed', 'no-usable-patch'],
    ],
  );
});

test('chainReport sorts steps by order and counts resolved ones; full chain needs every step and at least one', () => {
  const r = chainReport({
    chainId: 'c',
    runId: 'r',
    mode: 'seq',
    profile: 'swebench-v4',
    steps: [step(3, 'resolved'), step(1, 'resolved'), step(2, 'left-bug')],
  });
  assert.deepEqual(
    r.steps.map((s) => s.order),
    [1, 2, 3],
  );
  assert.equal(r.resolved_steps, 2);
  assert.equal(r.full_chain_resolved, false);
  assert.equal(r.profile, 'swebench-v4');
  assert.equal(report('seq', ['resolved', 'resolved']).full_chain_resolved, true);
  assert.equal(report('seq', []).full_chain_resolved, false);
});
