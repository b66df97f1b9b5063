// A step's verdict from what the container run reported and the graded log: only the harness's
// RESOLVED_FULL is resolved, and trouble that stops the tests is an error of the right kind,
// in a fixed order. Logs are graded for real (gradeLogExplained), so each case is one a run can
// produce. Mutations checked (applied by hand, tests seen failing, reverted): PARTIAL counted as
// resolved (`resolution !== 'RESOLVED_NO'`), each facts check dropped or moved, each problem kind
// mapped to another error kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  END_TEST_OUTPUT,
  gradeLogExplained,
  START_TEST_OUTPUT,
  TESTS_TIMED_OUT,
  APPLY_PATCH_FAILED,
  type GradeExplained,
} from '../../../src/core/evaluation/grading/index';
import { stepVerdict, type ContainerFacts } from '../../../src/core/evaluation/verdict';

const ran: ContainerFacts = {
  patchApplied: true,
  timedOut: false,
  cancelled: false,
  environmentError: null,
  timeoutS: 1800,
};

const wrap = (...lines: string[]) =>
  [`+ : '${START_TEST_OUTPUT}'`, ...lines, `+ : '${END_TEST_OUTPUT}'`, '>>>>> Test Exit Code: 0'].join('\n');

const grade = (log: string): GradeExplained =>
  gradeLogExplained({
    log,
    profile: 'swebench-v5',
    parser: 'pytest',
    failToPass: ['t.py::f1', 't.py::f2'],
    passToPass: ['t.py::p'],
  });

test('FULL is resolved; PARTIAL and NO are unresolved, not errors (mutation: PARTIAL counted as resolved)', () => {
  const full = grade(wrap('PASSED t.py::f1', 'PASSED t.py::f2', 'PASSED t.py::p'));
  const partial = grade(wrap('PASSED t.py::f1', 'FAILED t.py::f2', 'PASSED t.py::p').replace('Code: 0', 'Code: 1'));
  const no = grade(wrap('FAILED t.py::f1', 'FAILED t.py::f2', 'PASSED t.py::p').replace('Code: 0', 'Code: 1'));
  assert.equal(full.grade.resolution, 'RESOLVED_FULL');
  assert.equal(partial.grade.resolution, 'RESOLVED_PARTIAL');
  assert.equal(no.grade.resolution, 'RESOLVED_NO');
  assert.deepEqual(stepVerdict(ran, full), { status: 'resolved', resolved: true, error: null, errorKind: null });
  assert.deepEqual(stepVerdict(ran, partial), { status: 'unresolved', resolved: false, error: null, errorKind: null });
  assert.deepEqual(stepVerdict(ran, no), { status: 'unresolved', resolved: false, error: null, errorKind: null });
});

test('a patch that did not apply is an error of kind patch, whatever the log says', () => {
  const v = stepVerdict(
    { ...ran, patchApplied: false },
    grade(wrap('PASSED t.py::f1', 'PASSED t.py::f2', 'PASSED t.py::p')),
  );
  assert.equal(v.status, 'error');
  assert.equal(v.resolved, false);
  assert.equal(v.errorKind, 'patch');
  assert.match(v.error!, /did not apply/);
});

test('an unusable log is an error, its kind by why: no tests ran -> log (the code ran: not the environment), timed out -> timeout, patch -> patch, else log', () => {
  const cases: [string, string][] = [
    [wrap(), 'log'],
    [wrap('PASSED t.py::f1') + `\n${TESTS_TIMED_OUT}`, 'timeout'],
    [wrap('PASSED t.py::f1') + `\n${APPLY_PATCH_FAILED}`, 'patch'],
    [`+ : '${START_TEST_OUTPUT}'\nPASSED t.py::f1`, 'log'],
    [wrap('PASSED t.py::f1', 'PASSED t.py::f2', 'PASSED t.py::p').replace('Code: 0', 'Code: 2'), 'log'],
  ];
  for (const [log, kind] of cases) {
    const graded = grade(log);
    assert.ok(graded.problem, `${kind}: the log is unusable`);
    const v = stepVerdict(ran, graded);
    assert.deepEqual(
      { status: v.status, resolved: v.resolved, errorKind: v.errorKind, error: v.error },
      { status: 'error', resolved: false, errorKind: kind, error: graded.problem.message },
      `${graded.problem.kind}`,
    );
  }
});

test('no log at all is an error of kind log', () => {
  assert.deepEqual(stepVerdict(ran, null), {
    status: 'error',
    resolved: false,
    error: 'No log to grade.',
    errorKind: 'log',
  });
});

test('what stops the tests comes first: environment, then cancel, then timeout, then patch', () => {
  const good = grade(wrap('PASSED t.py::f1', 'PASSED t.py::f2', 'PASSED t.py::p'));
  const all: ContainerFacts = {
    patchApplied: false,
    timedOut: true,
    cancelled: true,
    environmentError: 'image not found',
    timeoutS: 60,
  };
  assert.deepEqual(stepVerdict(all, good), {
    status: 'error',
    resolved: false,
    error: 'image not found',
    errorKind: 'environment',
  });
  assert.deepEqual(stepVerdict({ ...all, environmentError: null }, good), {
    status: 'error',
    resolved: false,
    error: 'Evaluation cancelled.',
    errorKind: 'cancelled',
  });
  const timeout = stepVerdict({ ...all, environmentError: null, cancelled: false }, good);
  assert.equal(timeout.errorKind, 'timeout');
  assert.equal(timeout.error, 'Timeout error: 60 seconds exceeded.');
  assert.equal(
    stepVerdict({ ...all, environmentError: null, cancelled: false, timedOut: false }, good).errorKind,
    'patch',
  );
  assert.equal(
    stepVerdict({ ...all, environmentError: null, cancelled: false, timedOut: false }, null).errorKind,
    'patch',
  );
});
