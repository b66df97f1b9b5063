import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { annotatedStep } from '../../../../src/vscode/annotations/stepChoice';
import type { RunState, StepState } from '../../../../src/protocol/run';

const step = (order: number, status: StepState['status'], start: string | null, end: string | null): StepState => ({
  order,
  instanceId: `i-${order}`,
  author: { kind: 'human' },
  status,
  start,
  end,
  startedAt: null,
  submittedAt: null,
  elapsedMs: null,
  patch: null,
  note: null,
});

const state = (steps: StepState[], currentStep: number | null): RunState => ({
  schema: 1,
  runId: 'r',
  chainId: 'c',
  chainFile: 'c.json',
  repoSource: '.',
  mode: 'seq',
  branch: 'chainlens/r',
  createdAt: '',
  updatedAt: '',
  currentStep,
  steps,
});

describe('which step the editor annotates', () => {
  const s = state([step(1, 'submitted', 'a', 'b'), step(2, 'current', 'b', null), step(3, 'pending', null, null)], 2);

  it('is the current step, before its first edit too (never the step just submitted)', () => {
    assert.equal(annotatedStep(s, undefined)?.order, 2);
  });

  it('is the step the person chose, unless it has not started', () => {
    assert.equal(annotatedStep(s, 1)?.order, 1);
    assert.equal(annotatedStep(s, 3)?.order, 2);
  });

  it('is the last step once every step has ended, and none before anything has started', () => {
    const done = state([step(1, 'submitted', 'a', 'b'), step(2, 'submitted', 'b', 'c')], null);
    assert.equal(annotatedStep(done, undefined)?.order, 2);
    const fresh = state([step(1, 'current', 'a', null), step(2, 'pending', null, null)], 1);
    assert.equal(annotatedStep(fresh, undefined)?.order, 1);
    assert.equal(annotatedStep(state([step(1, 'pending', null, null)], 1), undefined), undefined);
  });
});
