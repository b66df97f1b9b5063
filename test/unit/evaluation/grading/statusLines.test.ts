// Which lines count as test results. The harness reads a line as a result only when the line
// itself starts (or, for pytest-v2, ends) with a status: `line.startswith(...)`, `line.endswith(...)`
// with no stripping first. Indented text, e.g. a test's captured output quoting a result line,
// must not turn a missing test into a passing one.
// Each test names the mutation of src/core/evaluation/grading/statuses.ts it was checked against
// (applied by hand, test seen failing, reverted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  gradeLog,
  parseTestLog,
  START_TEST_OUTPUT,
  END_TEST_OUTPUT,
} from '../../../../src/core/evaluation/grading/index';
import type { LogParserName } from '../../../../src/core/evaluation/grading/index';

const PROFILES = ['swebench-v4', 'swebench-v5'] as const;
const PYTEST_FAMILY: LogParserName[] = ['pytest', 'pytest-options', 'pytest-v2', 'matplotlib'];

test('an indented status line is no test result, in every pytest parser and both profiles (mutation: line.trimStart().startsWith)', () => {
  for (const parser of PYTEST_FAMILY) {
    for (const profile of PROFILES) {
      for (const indent of ['    ', ' ', '\u00a0', ...(parser === 'pytest-v2' ? [] : ['\t'])]) {
        const log = [`${indent}PASSED tests/test_a.py::test_x`, 'PASSED tests/test_a.py::test_y'].join('\n');
        assert.deepEqual(
          parseTestLog(log, parser, profile),
          { 'tests/test_a.py::test_y': 'PASSED' },
          `${parser} ${profile} indent ${JSON.stringify(indent)}`,
        );
      }
    }
  }
});

test('an F2P test seen only on an indented PASSED line is missing, so the step is not resolved', () => {
  const log = [
    `+ : '${START_TEST_OUTPUT}'`,
    '_____ test_y _____',
    '    captured: PASSED tests/test_a.py::test_x',
    '    PASSED tests/test_a.py::test_x',
    'PASSED tests/test_a.py::test_y',
    `+ : '${END_TEST_OUTPUT}'`,
  ].join('\n');
  for (const profile of PROFILES) {
    const grade = gradeLog({
      log,
      profile,
      parser: 'pytest',
      failToPass: ['tests/test_a.py::test_x'],
      passToPass: ['tests/test_a.py::test_y'],
    });
    assert.equal(grade.log_ok, true);
    assert.deepEqual(grade.status_map, { 'tests/test_a.py::test_y': 'PASSED' });
    assert.deepEqual(grade.tests_status.FAIL_TO_PASS, { success: [], failure: ['tests/test_a.py::test_x'] });
    assert.equal(grade.resolution, 'RESOLVED_NO', profile);
  }
});

test('pytest-v2: a status followed by trailing spaces ends with no status (mutation: line.trimEnd().endsWith)', () => {
  for (const profile of PROFILES) {
    assert.deepEqual(
      parseTestLog('t.py::a PASSED \nt.py::b PASSED\nt.py::c PASSED\u00a0', 'pytest-v2', profile),
      { 't.py::b': 'PASSED' },
      profile,
    );
  }
});

test('pytest-v2: control characters (tab, CR) go before the status checks, so a tab-indented result counts', () => {
  // The harness deletes chr(1)..chr(31) from each line first: a tab indent or a CRLF ending is gone by then.
  for (const profile of PROFILES) {
    assert.deepEqual(
      parseTestLog('\tPASSED t.py::a\r\nt.py::b PASSED\t\r', 'pytest-v2', profile),
      { 't.py::a': 'PASSED', 't.py::b': 'PASSED' },
      profile,
    );
  }
});

test('pytest-v2: an indented line that ends with a status is read, its id without the indent (Python split)', () => {
  assert.deepEqual(parseTestLog('    t.py::a PASSED', 'pytest-v2', 'swebench-v5'), { 't.py::a': 'PASSED' });
  assert.deepEqual(parseTestLog('    t.py::a PASSED', 'pytest-v2', 'swebench-v4'), { 't.py::a': 'PASSED' });
});

test('a status must be the very first characters: lower case and a prefix word do not count', () => {
  for (const parser of PYTEST_FAMILY) {
    assert.deepEqual(
      parseTestLog('passed t.py::a\nTEST PASSED t.py::b\n[gw0] PASSED t.py::c', parser, 'swebench-v5'),
      {},
      parser,
    );
  }
});

test('each of the five statuses starts a result line, and nothing else does', () => {
  const log = [
    'PASSED t.py::p',
    'FAILED t.py::f',
    'SKIPPED t.py::s',
    'ERROR t.py::e',
    'XFAIL t.py::x',
    'XPASS t.py::xp',
  ];
  assert.deepEqual(parseTestLog(log.join('\n'), 'pytest', 'swebench-v5'), {
    't.py::p': 'PASSED',
    't.py::f': 'FAILED',
    't.py::s': 'SKIPPED',
    't.py::e': 'ERROR',
    't.py::x': 'XFAIL',
  });
});

test('v5 drops exactly the SKIPPED [N] count summaries: any number of digits, the whole word, SKIPPED only', () => {
  // Mutations checked in isSkipSummary: the regex without ^, without $, without +; the status check dropped.
  const log = [
    'SKIPPED [12] t.py:3: needs network',
    'SKIPPED [1] t.py:9: slow',
    'SKIPPED t.py::test_x[3]',
    'SKIPPED [3]x t.py:1: odd',
    'FAILED [2] t.py:4',
  ].join('\n');
  assert.deepEqual(parseTestLog(log, 'pytest', 'swebench-v5'), {
    't.py::test_x[3]': 'SKIPPED',
    '[3]x': 'SKIPPED',
    '[2]': 'FAILED',
  });
});
