// What the tree, the status bar and the problem statement say about a step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StepEvaluation } from '../../../src/protocol/evaluation';
import type { StepState } from '../../../src/protocol/run';
import { presentStep, shortInstanceId, stepElapsedMs } from '../../../src/vscode/chainView/stepPresentation';
import {
  evaluationErrorHeadline,
  evaluationSummary,
  failedTests,
  outcomeText,
} from '../../../src/vscode/evaluation/messages';
import { toTerminalText } from '../../../src/vscode/util/format';
import { formatDuration } from '../../../src/core/util/duration';

const step = (over: Partial<StepState>): StepState => ({
  order: 1,
  instanceId: 'chainlens-demo__invoicekit-101',
  author: { kind: 'human' },
  status: 'pending',
  start: null,
  end: null,
  startedAt: null,
  submittedAt: null,
  elapsedMs: null,
  patch: null,
  note: null,
  ...over,
});

const evaluation = (over: Partial<StepEvaluation>): StepEvaluation => ({
  order: 1,
  instance_id: 'chainlens-demo__invoicekit-101',
  status: 'resolved',
  resolved: true,
  patch_applied: true,
  error: null,
  error_kind: null,
  tests_status: {
    FAIL_TO_PASS: { success: ['a', 'b'], failure: [] },
    PASS_TO_PASS: { success: ['c'], failure: ['d'] },
  },
  status_map: {},
  log_path: '/x/run_instance.log',
  report_path: '/x/report.json',
  duration_s: 3.2,
  source: 'submitted',
  commit: 'abc',
  image: 'img',
  evaluated_at: '2024-03-12T10:00:00.000Z',
  ...over,
});

test('statuses: pending, current, submitted-not-evaluated, resolved, unresolved, patch failures and errors', () => {
  const now = Date.parse('2024-03-12T10:05:00Z');
  assert.equal(presentStep(step({}), {}, now).status, 'pending');
  const current = presentStep(step({ status: 'current', startedAt: '2024-03-12T10:00:00Z' }), {}, now);
  assert.deepEqual(
    [current.status, current.icon, current.color, current.description],
    ['current', 'debug-stackframe', 'chainlens.stepCurrentForeground', 'human · 5m 00s'],
  );
  const submitted = step({ status: 'submitted', elapsedMs: 90_000, patch: { files: 1, insertions: 6, deletions: 1 } });
  assert.equal(presentStep(submitted, {}, now).statusText, 'submitted, not evaluated');
  const resolved = presentStep(submitted, { submitted: evaluation({}) }, now);
  assert.deepEqual([resolved.status, resolved.color], ['resolved', 'chainlens.stepResolvedForeground']);
  assert.ok(resolved.tooltip.some((l) => l.includes('Patch: 1 file, +6 −1')));
  assert.equal(
    presentStep(submitted, { submitted: evaluation({ status: 'unresolved', resolved: false }) }, now).status,
    'unresolved',
  );
  const failed = presentStep(step({ status: 'patch_failed', note: 'the recorded patch does not apply' }), {}, now);
  assert.deepEqual([failed.status, failed.statusText], ['error', 'patch did not apply']);
  const engine = presentStep(
    submitted,
    {
      submitted: evaluation({
        status: 'error',
        resolved: false,
        error: 'Cannot reach the Docker engine at unix:///var/run/docker.sock',
        error_kind: 'environment',
      }),
    },
    now,
  );
  assert.equal(engine.statusText, 'Docker engine not reachable: start Docker or set chainlens.docker.host');
  assert.equal(presentStep(step({ note: 'skipped: Oracle run started at a later step' }), {}, now).status, 'skipped');
});

test("the current step's description starts with its latest F2P count (a narrow side bar cuts the end)", () => {
  const now = Date.parse('2024-03-12T10:00:30Z');
  const p = presentStep(
    step({ status: 'current', startedAt: '2024-03-12T10:00:00Z' }),
    {
      worktree: evaluation({
        source: 'worktree',
        tests_status: {
          FAIL_TO_PASS: { success: ['a'], failure: ['b', 'c'] },
          PASS_TO_PASS: { success: [], failure: [] },
        },
      }),
    },
    now,
  );
  assert.equal(p.description, 'F2P 1/3 · human · 30s');
  const unresolved = presentStep(
    step({ status: 'submitted', elapsedMs: 90_000 }),
    { submitted: evaluation({ status: 'unresolved', resolved: false }) },
    now,
  );
  assert.equal(unresolved.description, 'unresolved F2P 2/2 · human · 1m 30s');
});

test('summaries and headlines people read', () => {
  assert.equal(evaluationSummary(evaluation({})), 'resolved · F2P 2/2 · P2P 1/2');
  assert.equal(
    evaluationSummary(evaluation({ status: 'empty_patch' })),
    'Nothing to evaluate: the step has no changes',
  );
  assert.equal(
    evaluationErrorHeadline('No such image: swebench/x:latest', 'environment'),
    'The evaluation image is not available: build or pull it, or set chainlens.image',
  );
  assert.equal(
    evaluationErrorHeadline(
      "Docker context 'lab' (named by DOCKER_CONTEXT) does not exist: no meta.json for it.",
      'thrown',
    ),
    'The Docker context named does not exist: check chainlens.docker.context, DOCKER_CONTEXT or `docker context ls`',
  );
  assert.equal(
    evaluationErrorHeadline('killed after 1800 s', 'timeout'),
    'The tests did not finish within chainlens.timeoutSeconds',
  );
});

test('short labels, durations and terminal line ends', () => {
  assert.equal(shortInstanceId('chainlens-demo__invoicekit-101', 'chainlens-demo/invoicekit'), 'invoicekit-101');
  assert.equal(shortInstanceId('django__django-11099', 'django/django'), 'django-11099');
  assert.equal(shortInstanceId('other__x-1', 'django/django'), 'other__x-1');
  assert.deepEqual(
    [formatDuration(45_000), formatDuration(723_000), formatDuration(7_500_000), formatDuration(200 * 3600_000)],
    ['45s', '12m 03s', '2h 05m', '8d 8h'],
  );
  assert.equal(toTerminalText('a\nb\r\nc'), 'a\r\nb\r\nc');
  assert.equal(stepElapsedMs(step({ status: 'pending' }), 0), null);
});

test('Run Step Tests says its outcome: verdict and both buckets, failures F2P first', () => {
  const e = evaluation({
    order: 1,
    source: 'worktree',
    status: 'unresolved',
    resolved: false,
    status_map: { a: 'PASSED', b: 'FAILED', p: 'FAILED' },
    tests_status: {
      FAIL_TO_PASS: { success: ['a'], failure: ['b', 'c'] },
      PASS_TO_PASS: { success: ['q'], failure: ['p'] },
    },
  });
  assert.equal(outcomeText(e, 'worktree'), 'Step 1 tests (your work): unresolved · F2P 1/3 · P2P 1/2.');
  assert.deepEqual(
    failedTests(e).map((f) => `${f.bucket} ${f.testId} ${f.status}`),
    ['F2P b FAILED', 'F2P c did not run', 'P2P p FAILED'],
  );
});
