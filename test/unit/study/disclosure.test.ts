import { test } from 'node:test';
import assert from 'node:assert/strict';
import { disclosureFor, OPEN, type StudyRules } from '../../../src/core/study/disclosure';
import type { RunState, StepAuthor } from '../../../src/protocol/run';

function run(current: number | null, authors: StepAuthor['kind'][]): Pick<RunState, 'currentStep' | 'steps'> {
  return {
    currentStep: current,
    steps: authors.map((kind, i) => ({
      order: i + 1,
      instanceId: `i${i + 1}`,
      author:
        kind === 'recorded'
          ? { kind, model: 'm', source: 's' }
          : kind === 'agent-live'
            ? { kind, agent: 'a' }
            : { kind },
      status: 'pending',
      start: null,
      end: null,
      startedAt: null,
      submittedAt: null,
      elapsedMs: null,
      patch: null,
      note: null,
    })) as RunState['steps'],
  };
}

const rules = (feedback: StudyRules['feedback'], revealAfterSubmission: boolean): StudyRules => ({
  study: 's',
  feedback,
  revealAfterSubmission,
});

test('outside a study everything is shown, whoever authors the step', () => {
  assert.deepEqual(disclosureFor(undefined, run(2, ['recorded', 'human'])), OPEN);
});

test('a person solving a study step is blind: no annotations, gold documents or test ids (feedback none)', () => {
  const d = disclosureFor(rules('none', true), run(2, ['recorded', 'human']));
  assert.equal(d.blind, true);
  assert.equal(d.annotations, false);
  assert.equal(d.goldDocuments, false);
  assert.equal(d.testIds, false);
  assert.equal(d.testResults, 'none');
  assert.match(d.reason!, /blind/);
});

test('feedback levels: summary shows counts but no ids; full shows ids and results', () => {
  const summary = disclosureFor(rules('summary', false), run(1, ['human', 'human']));
  assert.equal(summary.testIds, false);
  assert.equal(summary.testResults, 'summary');
  assert.equal(summary.annotations, false);
  const full = disclosureFor(rules('full', false), run(1, ['human', 'human']));
  assert.equal(full.testIds, true);
  assert.equal(full.testResults, 'full');
  assert.equal(full.goldDocuments, false, 'full test feedback never opens gold');
});

test('after the person submitted: revealed if the study allows it, else still withheld', () => {
  assert.deepEqual(disclosureFor(rules('none', true), run(null, ['recorded', 'human'])), OPEN);
  const kept = disclosureFor(rules('none', false), run(null, ['recorded', 'human']));
  assert.equal(kept.annotations, false);
  assert.match(kept.reason!, /does not reveal/);
  // HA: the person's step 1 is submitted, an attached agent's step 2 is current: not a person solving.
  assert.deepEqual(disclosureFor(rules('none', true), run(2, ['human', 'agent-live'])), OPEN);
});
