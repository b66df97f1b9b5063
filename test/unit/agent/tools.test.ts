import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_TOOLS, agentTool, parseToolArgs } from '../../../src/core/agent/tools';
import { currentStepView, refuseTestsReason, testFeedbackView } from '../../../src/core/agent/views';
import type { StepEvaluation } from '../../../src/protocol/evaluation';
import type { Chain } from '../../../src/protocol/chain';
import type { RunState } from '../../../src/protocol/run';

test('every tool has a JSON Schema that matches its argument checks', () => {
  for (const t of AGENT_TOOLS) {
    assert.equal(t.inputSchema.type, 'object');
    assert.equal(t.inputSchema.additionalProperties, false);
    assert.deepEqual(parseToolArgs(t, {}), {});
    assert.throws(() => parseToolArgs(t, { nope: 1 }), /unknown argument 'nope'/);
  }
  const submit = agentTool('submit_step');
  assert.deepEqual(parseToolArgs(submit, { step: 2, summary: 'x' }), { step: 2, summary: 'x' });
  assert.throws(() => parseToolArgs(submit, { step: 0 }), /bad arguments for submit_step: 'step'.*nothing was changed/);
  assert.throws(
    () => agentTool('apply_gold'),
    /unknown tool 'apply_gold'; the tools are get_current_step, get_run_status, submit_step, run_tests/,
  );
});

const chain: Chain = {
  id: 'c',
  repo: 'o/r',
  baseCommit: 'a'.repeat(40),
  dockerImage: null,
  steps: [
    {
      order: 1,
      instanceId: 'o__r-1',
      problemStatement: 'Fix the thing.',
      goldPatch: 'GOLD-SECRET',
      testPatch: 'TEST-SECRET',
      failToPass: ['tests/t.py::test_hidden_f2p'],
      passToPass: ['tests/t.py::test_hidden_p2p'],
      testCmd: null,
    },
  ],
} as Chain;
const state = {
  schema: 1,
  runId: 'seq-1',
  chainId: 'c',
  chainFile: 'c.json',
  repoSource: 'r',
  mode: 'seq',
  branch: 'chainlens/seq-1',
  createdAt: '',
  updatedAt: '',
  currentStep: 1,
  steps: [
    {
      order: 1,
      instanceId: 'o__r-1',
      author: { kind: 'human' },
      status: 'current',
      start: 'a'.repeat(40),
      end: null,
      startedAt: null,
      submittedAt: null,
      elapsedMs: null,
      patch: null,
      note: null,
    },
  ],
} as RunState;

test('the current step view carries the problem statement and none of the answers', () => {
  const view = currentStepView(state, chain, '/w', 'none');
  assert.equal(view.problemStatement, 'Fix the thing.');
  const text = JSON.stringify(view);
  for (const secret of ['GOLD-SECRET', 'TEST-SECRET', 'test_hidden_f2p', 'test_hidden_p2p'])
    assert.ok(!text.includes(secret), secret);
  assert.throws(() => currentStepView({ ...state, currentStep: null }, chain, '/w', 'none'), /is complete/);
});

test('test feedback: none refuses, summary gives counts without names, full adds every status', () => {
  assert.match(refuseTestsReason('none')!, /no test feedback/);
  assert.equal(refuseTestsReason('summary'), null);
  const evaluation = {
    order: 1,
    instance_id: 'o__r-1',
    status: 'unresolved',
    resolved: false,
    patch_applied: true,
    error: null,
    error_kind: null,
    tests_status: {
      FAIL_TO_PASS: { success: ['tests/t.py::test_hidden_f2p'], failure: ['tests/t.py::test_other'] },
      PASS_TO_PASS: { success: ['tests/t.py::test_hidden_p2p'], failure: [] },
    },
    status_map: { 'tests/t.py::test_hidden_f2p': 'PASSED', 'tests/t.py::test_other': 'FAILED' },
  } as unknown as StepEvaluation;
  const summary = testFeedbackView(evaluation, 'summary');
  assert.deepEqual(summary.failToPass, { passed: 1, failed: 1 });
  assert.deepEqual(summary.passToPass, { passed: 1, failed: 0 });
  assert.ok(!JSON.stringify(summary).includes('test_hidden'));
  assert.equal(testFeedbackView(evaluation, 'full').tests?.['tests/t.py::test_other'], 'FAILED');
});
