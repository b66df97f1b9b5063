// What the window says of a graded step, through the disclosure policy: the Output channel line
// (issue: it printed "step 1 (submitted): unresolved · F2P 0/1 · P2P 98/98" and the log's path
// with `feedback: none` while step 2 was open) and the panels' summary line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { disclosureFor, OPEN } from '../../../src/core/study/disclosure';
import { outputLine, shownSummary } from '../../../src/vscode/evaluation/messages';
import type { StepEvaluation } from '../../../src/protocol/evaluation';
import type { RunState } from '../../../src/protocol/run';

const evaluation: StepEvaluation = {
  order: 1,
  instance_id: 'i1',
  status: 'unresolved',
  resolved: false,
  patch_applied: true,
  error: null,
  error_kind: null,
  tests_status: {
    FAIL_TO_PASS: { success: [], failure: ['tests/test_parse.py::test_hidden'] },
    PASS_TO_PASS: { success: ['tests/test_parse.py::test_kept'], failure: [] },
  },
  status_map: {},
  log_path: '/data/runs/r/evaluations/step-1/run_instance.log',
  report_path: '/data/runs/r/evaluations/step-1/report.json',
  duration_s: 5.7,
  source: 'submitted',
  commit: 'c',
  image: 'img',
  evaluated_at: '2026-12-03T00:00:00Z',
};

const onStep2 = {
  currentStep: 2,
  steps: [1, 2].map((order) => ({ order, author: { kind: 'human' as const } })),
} as unknown as Pick<RunState, 'currentStep' | 'steps'>;
const study = (feedback: 'none' | 'summary' | 'full') =>
  disclosureFor({ study: 's', feedback, revealAfterSubmission: false }, onStep2);

test('feedback none: the Output channel says the step was graded, nothing of how, no log path', () => {
  const line = outputLine(study('none'), evaluation);
  assert.equal(line, 'step 1 (submitted): graded in 5.7 s');
  assert.equal(shownSummary(study('none'), evaluation), undefined, 'the panels show no test line');
});

test('feedback summary: counts only, no log; full and outside studies: everything', () => {
  assert.equal(outputLine(study('summary'), evaluation), 'step 1 (submitted): F2P 0/1 · P2P 1/1 in 5.7 s');
  assert.equal(shownSummary(study('summary'), evaluation), 'F2P 0/1 · P2P 1/1');
  assert.match(outputLine(OPEN, evaluation), /unresolved · F2P 0\/1 · P2P 1\/1 in 5\.7 s \(log: .*run_instance\.log\)/);
});
