// Is this log usable? (the harness's get_logs_eval; docs/reference/grading.md, "From log to verdict")
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  APPLY_PATCH_FAILED,
  END_TEST_OUTPUT,
  evalScriptTestSection,
  inspectLog,
  recordedExitCode,
  RESET_FAILED,
  START_TEST_OUTPUT,
  TESTS_ERRORED,
  TESTS_TIMED_OUT,
  timeoutNotice,
} from '../../../../src/core/evaluation/grading/index';

const START = `+ : '${START_TEST_OUTPUT}'`;
const END = `+ : '${END_TEST_OUTPUT}'`;
const wrap = (body: string, exitCode?: number) =>
  [START, body, END, ...(exitCode === undefined ? [] : [`>>>>> Test Exit Code: ${exitCode}`])].join('\n');

test('the markers: both needed; results between them are read', () => {
  assert.equal(inspectLog('PASSED t.py::a\n', 'pytest', 'swebench-v4').problem?.kind, 'markers-missing');
  assert.equal(inspectLog(`${START}\nPASSED t.py::a\n`, 'pytest', 'swebench-v5').problem?.kind, 'markers-missing');
  const r = inspectLog(`PASSED outside\n${wrap('PASSED t.py::a')}\nPASSED after`, 'pytest', 'swebench-v5');
  assert.deepEqual([...r.statusMap], [['t.py::a', 'PASSED']]);
});

test('nothing between the markers: the whole log is parsed instead', () => {
  const r = inspectLog(`PASSED t.py::outside\n${wrap('')}\n`, 'pytest', 'swebench-v4');
  assert.equal(r.usable, true);
  assert.deepEqual([...r.statusMap], [['t.py::outside', 'PASSED']]);
});

test('failure markers anywhere make the log unusable', () => {
  const cases = [
    [APPLY_PATCH_FAILED, 'patch-apply-failed'],
    [RESET_FAILED, 'reset-failed'],
    [TESTS_ERRORED, 'tests-errored'],
    [TESTS_TIMED_OUT, 'timed-out'],
  ] as const;
  for (const [marker, kind] of cases) {
    for (const profile of ['swebench-v4', 'swebench-v5'] as const) {
      const r = inspectLog(`${wrap('PASSED t.py::a')}\n${marker}`, 'pytest', profile);
      assert.equal(r.usable, false);
      assert.equal(r.problem?.kind, kind);
      assert.equal(r.statusMap.size, 0);
    }
  }
});

test("the harness's timeout notice at the end of a log makes it unusable", () => {
  const log = `${wrap('PASSED t.py::a')}\n\n${timeoutNotice(1800)}`;
  assert.equal(timeoutNotice(1800), 'Timeout error: 1800 seconds exceeded.');
  assert.equal(inspectLog(log, 'pytest', 'swebench-v4').problem?.kind, 'timed-out');
  // The same words printed by a test in the middle of the output are not a timeout.
  assert.equal(inspectLog(wrap(`${timeoutNotice(5)}\nPASSED t.py::a`), 'pytest', 'swebench-v4').usable, true);
});

test('v5: an empty result with no runner summary is "no tests ran"; v4 accepts it', () => {
  const log = wrap('collected 0 items\n\n==== no tests ran in 0.01s ====');
  assert.equal(inspectLog(log, 'pytest', 'swebench-v5').problem?.kind, 'no-tests-ran');
  assert.equal(inspectLog(log, 'pytest', 'swebench-v4').usable, true);
});

test('v5: a non-zero count in a runner summary is evidence the suite ran; a zero count is not', () => {
  assert.equal(inspectLog(wrap('Chrome: Executed 12 of 12 SUCCESS'), 'pytest', 'swebench-v5').usable, true);
  assert.equal(inspectLog(wrap('3 passing (20ms)'), 'pytest', 'swebench-v5').usable, true);
  assert.equal(inspectLog(wrap('1..4\n# tests 4'), 'pytest', 'swebench-v5').usable, true);
  assert.equal(inspectLog(wrap('Executed 0 of 0 DISCONNECTED'), 'pytest', 'swebench-v5').usable, false);
  // `^# tests` anchors at a line start: a \r is no line break for Python's re.
  assert.equal(inspectLog(wrap('x\r# tests 4'.replace('\r', '\u2028')), 'pytest', 'swebench-v5').usable, false);
});

test('v5: a non-zero exit code with only passes read is rejected; with a FAILED or ERROR it is a normal failing run', () => {
  assert.equal(
    inspectLog(wrap('PASSED t.py::a', 1), 'pytest', 'swebench-v5').problem?.kind,
    'exit-code-contradicts-log',
  );
  assert.equal(inspectLog(wrap('PASSED t.py::a\nFAILED t.py::b', 1), 'pytest', 'swebench-v5').usable, true);
  assert.equal(inspectLog(wrap('PASSED t.py::a\nERROR t.py::b', 2), 'pytest', 'swebench-v5').usable, true);
  assert.equal(inspectLog(wrap('PASSED t.py::a', 0), 'pytest', 'swebench-v5').usable, true);
  assert.equal(inspectLog(wrap('PASSED t.py::a'), 'pytest', 'swebench-v5').usable, true);
  assert.equal(inspectLog(wrap('PASSED t.py::a', 1), 'pytest', 'swebench-v4').usable, true);
});

test('the first recorded exit code counts, even one the test output printed itself', () => {
  assert.equal(recordedExitCode('>>>>> Test Exit Code: 0\n>>>>> Test Exit Code: 1'), 0);
  assert.equal(recordedExitCode('>>>>> Test Exit Code:\t-1'), -1);
  assert.equal(recordedExitCode('>>>>> Test Exit Code: 137'), 137);
  assert.equal(recordedExitCode('>>>>> Test Exit Code: x'), null);
  const spoofed = [START, 'PASSED t.py::a', '>>>>> Test Exit Code: 0', END, '>>>>> Test Exit Code: 1'].join('\n');
  assert.equal(inspectLog(spoofed, 'pytest', 'swebench-v5').usable, true);
});

test("CRLF and lone CR read as line breaks, as Python's text mode reads them", () => {
  const r = inspectLog([START, 'PASSED t.py::a', 'FAILED t.py::b', END].join('\r\n'), 'seaborn', 'swebench-v5');
  assert.deepEqual(
    [...r.statusMap],
    [
      ['t.py::a', 'PASSED'],
      ['t.py::b', 'FAILED'],
    ],
  );
  const progress = inspectLog(wrap('t.py::a 10%\rPASSED t.py::a'), 'pytest', 'swebench-v5');
  assert.deepEqual([...progress.statusMap], [['t.py::a', 'PASSED']]);
});

test('a parser that raises in the harness makes the log unusable', () => {
  const r = inspectLog(wrap('FAILED'), 'seaborn', 'swebench-v4');
  assert.equal(r.problem?.kind, 'parser-crashed');
  assert.equal(inspectLog(wrap('FAILED\nPASSED t.py::a'), 'seaborn', 'swebench-v5').usable, true);
});

test('the eval-script section the runner writes around a test command', () => {
  assert.deepEqual(evalScriptTestSection('pytest -rA', { recordExitCode: true }), [
    ": '>>>>> Start Test Output'",
    'pytest -rA',
    'SWEBENCH_TEST_EXIT_CODE=$?',
    ": '>>>>> End Test Output'",
    'echo ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"',
  ]);
  assert.deepEqual(evalScriptTestSection('pytest -rA', { recordExitCode: false }), [
    ": '>>>>> Start Test Output'",
    'pytest -rA',
    ": '>>>>> End Test Output'",
  ]);
});
