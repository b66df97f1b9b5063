import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  agentFeedbackFor,
  agentRefusal,
  disclosureFor,
  goldShown,
  gradeText,
  logShown,
  OPEN,
  researcherRefusal,
  revealRefusal,
  type StudyRules,
} from '../../../src/core/study/disclosure';
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

test('outside a study a researcher browsing recorded or agent steps sees everything', () => {
  assert.deepEqual(disclosureFor(undefined, run(2, ['human', 'recorded'])), OPEN);
  assert.deepEqual(disclosureFor(undefined, run(1, ['agent-live', 'human'])), OPEN);
  assert.deepEqual(disclosureFor(undefined, run(null, ['human', 'human'])), OPEN);
});

test("outside a study a person's own step keeps its gold hidden until revealed; earlier steps' gold as before", () => {
  const d = disclosureFor(undefined, run(2, ['recorded', 'human']));
  assert.equal(d.withheldGoldStep, 2);
  assert.equal(goldShown(d, 2), false, "the step's own gold");
  assert.equal(goldShown(d, 1), true, "an earlier step's gold");
  assert.equal(d.testResults, 'full', "tests are the person's to run and read");
  assert.equal(d.participant, false);
  assert.match(d.reason!, /Reveal Gold for This Step/);
  assert.equal(revealRefusal(d), null);
  assert.deepEqual(disclosureFor(undefined, run(2, ['recorded', 'human']), [2]), OPEN, 'remembered per step');
  assert.equal(disclosureFor(undefined, run(2, ['human', 'human']), [1]).withheldGoldStep, 2, 'another step revealed');
});

test('a study participant can reveal nothing, and researcher views and agents are refused', () => {
  const d = disclosureFor(rules('none', false), run(2, ['recorded', 'human']));
  assert.match(revealRefusal(d)!, /blind/);
  assert.match(researcherRefusal(d, 'Study Results')!, /not available inside a participant's study session/);
  assert.equal(researcherRefusal(OPEN, 'Study Results'), null);
  assert.match(agentRefusal(d, run(2, ['recorded', 'human']))!, /no agent can be attached/);
  assert.equal(agentRefusal(OPEN, run(2, ['recorded', 'human'])), null, 'outside studies, Hand Step to Agent');
  const ha = disclosureFor(rules('none', true), run(2, ['human', 'agent-live']));
  assert.equal(agentRefusal(ha, run(2, ['human', 'agent-live'])), null, "HA: the agent's own step");
});

test("the study's feedback rule wins over any flag or setting", () => {
  const none = disclosureFor(rules('none', false), run(null, ['recorded', 'agent-live']));
  assert.equal(agentFeedbackFor(none, 'full'), 'none');
  const summary = disclosureFor(rules('summary', false), run(1, ['human', 'human']));
  assert.equal(agentFeedbackFor(summary, 'full'), 'summary');
  assert.equal(agentFeedbackFor(summary, 'none'), 'none', 'a stricter flag stays strict');
  assert.equal(agentFeedbackFor(OPEN, 'full'), 'full');
  // HA after the person's step, revealed to the participant: the agent still gets only the study's level.
  const ha = disclosureFor(rules('summary', true), run(2, ['human', 'agent-live']));
  assert.equal(ha.testResults, 'full');
  assert.equal(agentFeedbackFor(ha, 'full'), 'summary');
});

test('a graded step is worded only as far as the feedback allows', () => {
  const g = { status: 'unresolved', f2p: { passed: 0, total: 1 }, p2p: { passed: 98, total: 98 } };
  const none = disclosureFor(rules('none', false), run(2, ['human', 'human']));
  assert.equal(gradeText(none, g), 'graded');
  assert.equal(logShown(none), false);
  const summary = disclosureFor(rules('summary', false), run(2, ['human', 'human']));
  assert.equal(gradeText(summary, g), 'F2P 0/1 · P2P 98/98');
  assert.equal(logShown(summary), false);
  assert.equal(gradeText(OPEN, g), 'unresolved · F2P 0/1 · P2P 98/98');
  assert.equal(logShown(OPEN), true);
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
  assert.deepEqual(disclosureFor(rules('none', true), run(null, ['recorded', 'human'])), {
    ...OPEN,
    participant: true,
    agentTests: 'none',
  });
  const kept = disclosureFor(rules('none', false), run(null, ['recorded', 'human']));
  assert.equal(kept.annotations, false);
  assert.match(kept.reason!, /does not reveal/);
  // HA: the person's step 1 is submitted, an attached agent's step 2 is current: not a person solving.
  assert.deepEqual(disclosureFor(rules('none', true), run(2, ['human', 'agent-live'])), {
    ...OPEN,
    participant: true,
    agentTests: 'none',
  });
});
