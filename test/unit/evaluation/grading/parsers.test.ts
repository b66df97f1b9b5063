// Line-level rules of each harness parser, one quirk per test, on the exact line shapes the
// harness's code handles (the real-log corpus is in corpus.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTestLog } from '../../../../src/core/evaluation/grading/index';
import { ParserCrash } from '../../../../src/core/evaluation/grading/parserCrash';

const lines = (...l: string[]) => l.join('\n');

test('pytest: FAILED keeps the first word after the status; " - message" never enters the id', () => {
  const log = lines(
    'PASSED t.py::a',
    'FAILED t.py::b - assert 1 - 2',
    'ERROR t.py::c - RuntimeError',
    'XFAIL t.py::d - reason',
    'XPASS t.py::e why',
  );
  for (const profile of ['swebench-v4', 'swebench-v5'] as const) {
    assert.deepEqual(parseTestLog(log, 'pytest', profile), {
      't.py::a': 'PASSED',
      't.py::b': 'FAILED',
      't.py::c': 'ERROR',
      't.py::d': 'XFAIL',
    });
  }
});

test('pytest: the status is whatever word the line starts with, and later lines win', () => {
  const log = lines(
    'ERROR: file or directory not found: t.py',
    'FAILED t.py::a',
    'PASSED t.py::a',
    'PASSEDX t.py::b',
    'PASSED',
  );
  assert.deepEqual(parseTestLog(log, 'pytest', 'swebench-v5'), {
    file: 'ERROR:',
    't.py::a': 'PASSED',
    't.py::b': 'PASSEDX',
  });
});

test("pytest: words split on Python's whitespace (\\x1c, NBSP, em space) but not on a BOM", () => {
  assert.deepEqual(parseTestLog('PASSED\x1ct.py::a', 'pytest', 'swebench-v5'), { 't.py::a': 'PASSED' });
  assert.deepEqual(parseTestLog('PASSED\u00a0t.py::a\u2003tail', 'pytest', 'swebench-v5'), { 't.py::a': 'PASSED' });
  assert.deepEqual(parseTestLog('PASSED\ufefft.py::a', 'pytest', 'swebench-v5'), {});
});

test('pytest: v4 records SKIPPED [N] summaries as a test named [N]; v5 only drops SKIPPED ones', () => {
  const log = lines('SKIPPED [2] t.py:10: no network', 'PASSED [100%]', 'SKIPPED [x] t.py:1: odd');
  assert.deepEqual(parseTestLog(log, 'pytest', 'swebench-v4'), {
    '[2]': 'SKIPPED',
    '[100%]': 'PASSED',
    '[x]': 'SKIPPED',
  });
  assert.deepEqual(parseTestLog(log, 'pytest', 'swebench-v5'), { '[100%]': 'PASSED', '[x]': 'SKIPPED' });
});

test('pytest-options: an absolute-path parameter becomes /basename; //, * and relative paths stay', () => {
  const log = lines(
    'PASSED t.py::a[/home/u/data/CT.dcm]',
    'PASSED t.py::b[//server/x.dcm]',
    'PASSED t.py::c[/data/*.dcm]',
    'PASSED t.py::d[rel/x.dcm]',
    'PASSED t.py::e[/x/a]tail',
    'FAILED t.py::f[/p/q/r] - boom',
  );
  assert.deepEqual(parseTestLog(log, 'pytest-options', 'swebench-v5'), {
    't.py::a[/CT.dcm]': 'PASSED',
    't.py::b[//server/x.dcm]': 'PASSED',
    't.py::c[/data/*.dcm]': 'PASSED',
    't.py::d[rel/x.dcm]': 'PASSED',
    // Text after the last "]" is dropped.
    't.py::e[/a]': 'PASSED',
    't.py::f[/r]': 'FAILED',
  });
});

test('matplotlib: MouseButton names become their numbers before the pytest rules', () => {
  const log = 'PASSED t.py::test_click[MouseButton.LEFT-MouseButton.RIGHT]';
  assert.deepEqual(parseTestLog(log, 'matplotlib', 'swebench-v5'), { 't.py::test_click[1-3]': 'PASSED' });
  assert.deepEqual(parseTestLog(log, 'pytest', 'swebench-v5'), {
    't.py::test_click[MouseButton.LEFT-MouseButton.RIGHT]': 'PASSED',
  });
});

test('pytest-v2: colour codes and control characters are stripped first', () => {
  const log = lines('\x1b[32mPASSED\x1b[0m t.py::a', '\x1b[1;31mFAILED\x1b[0m t.py::b', 'PASSED\tt.py::c');
  // "[1;31m" is not a bare "[<n>m", so it stays and that line no longer starts with a status;
  // the tab is removed, which glues "PASSEDt.py::c" into one word and the line is dropped.
  assert.deepEqual(parseTestLog(log, 'pytest-v2', 'swebench-v5'), { 't.py::a': 'PASSED' });
});

test('pytest-v2: status at the end of the line — v5 keeps the whole id, v4 the first word and the second word as status', () => {
  const log = lines('t.py::a[x y] PASSED', 't.py::b FAILED', 't.py::c[p q r] XFAIL');
  assert.deepEqual(parseTestLog(log, 'pytest-v2', 'swebench-v5'), {
    't.py::a[x y]': 'PASSED',
    't.py::b': 'FAILED',
    't.py::c[p q r]': 'XFAIL',
  });
  assert.deepEqual(parseTestLog(log, 'pytest-v2', 'swebench-v4'), {
    't.py::a[x': 'y]',
    't.py::b': 'FAILED',
    't.py::c[p': 'q',
  });
});

test('pytest-v2: FAILED lines — v5 cuts at the first " - ", v4 keeps one word; other statuses keep their message in v5', () => {
  const log = lines(
    'FAILED t.py::a[x - y] - AssertionError',
    'ERROR t.py::b - RuntimeError',
    'SKIPPED [3] t.py:1: why',
  );
  assert.deepEqual(parseTestLog(log, 'pytest-v2', 'swebench-v5'), {
    't.py::a[x': 'FAILED',
    't.py::b - RuntimeError': 'ERROR',
  });
  assert.deepEqual(parseTestLog(log, 'pytest-v2', 'swebench-v4'), {
    't.py::a[x': 'FAILED',
    't.py::b': 'ERROR',
    '[3]': 'SKIPPED',
  });
});

test('django: same-line verdicts, the three pass spellings, skips, FAIL/ERROR headers', () => {
  const log = lines(
    'test_a (m.T) ... ok',
    'test_b (m.T) ... OK',
    'test_c (m.T) ...  OK',
    "test_d (m.T) ... skipped 'no db'",
    'test_e (m.T) ... FAIL',
    'test_f (m.T) ... ERROR',
    'FAIL: test_g (m.T)',
    'ERROR: test_h (m.T)',
  );
  assert.deepEqual(parseTestLog(log, 'django', 'swebench-v5'), {
    'test_a (m.T)': 'PASSED',
    'test_b (m.T)': 'PASSED',
    'test_c (m.T)': 'PASSED',
    'test_d (m.T)': 'SKIPPED',
    'test_e (m.T)': 'FAILED',
    'test_f (m.T)': 'ERROR',
    test_g: 'FAILED',
    test_h: 'ERROR',
  });
});

test('django: a verdict on a later line goes to the last test that printed " ... "; any line starting "ok" counts', () => {
  const log = lines('test_a (m.T) ... some output', 'more output', 'okay, done', 'test_b (m.T) ... expected failure');
  assert.deepEqual(parseTestLog(log, 'django', 'swebench-v5'), { 'test_a (m.T)': 'PASSED' });
});

test("django: the django__django-7188 line and the '--version is equivalent to version' test", () => {
  const log = lines(
    'Applying sites.0002_alter_domain_unique...test_no_migrations (m.T) ... ok',
    'x --version is equivalent to version y',
  );
  assert.deepEqual(parseTestLog(log, 'django', 'swebench-v5'), {
    'test_no_migrations (m.T)': 'PASSED',
    '--version is equivalent to version': 'PASSED',
  });
});

test('django: an interrupted verdict matched across lines by the harness patterns', () => {
  const log = lines('test_a (m.T) ... System check identified no issues (0 silenced)', 'ok');
  // The line-wise rules credit test_a through the "ok" line; the pattern agrees.
  assert.deepEqual(parseTestLog(log, 'django', 'swebench-v5'), { 'test_a (m.T)': 'PASSED' });
  const multi = lines("test_b (m.T) ... Testing against Django installed in '/x'", 'with 2 (0 silenced).', 'ok');
  assert.equal(parseTestLog(multi, 'django', 'swebench-v4')['test_b (m.T)'], 'PASSED');
});

test('django: a FAIL:/ERROR: line of one word makes the harness parser raise (both versions)', () => {
  for (const line of ['FAIL:', 'ERROR:root:boom']) {
    assert.throws(() => parseTestLog(line, 'django', 'swebench-v5'), ParserCrash);
  }
  // Python logging output with a space is read as a test called by its second word.
  assert.deepEqual(parseTestLog('ERROR:root:something happened', 'django', 'swebench-v5'), { happened: 'ERROR' });
});

test('sympy: verdict lines and failure banners', () => {
  const log = lines(
    'test_a ok',
    'test_b F',
    'test_c E',
    'test_d f',
    '  test_e ok   ',
    '______ sympy/core/tests/test_x.py:test_b ______',
    'not_a_test ok',
  );
  assert.deepEqual(parseTestLog(log, 'sympy', 'swebench-v5'), {
    'sympy/core/tests/test_x.py:test_b': 'FAILED',
    test_a: 'PASSED',
    test_b: 'FAILED',
    test_c: 'ERROR',
    test_e: 'PASSED',
  });
});

test('seaborn: PASSED/FAILED only; v4 raises on a bare status line, v5 skips it', () => {
  const log = lines('t.py::a PASSED [ 50%]', 'PASSED t.py::b', 'FAILED t.py::c - x', 'ERROR t.py::d', 'XFAIL t.py::e');
  assert.deepEqual(parseTestLog(log, 'seaborn', 'swebench-v5'), {
    't.py::a': 'PASSED',
    't.py::b': 'PASSED',
    't.py::c': 'FAILED',
  });
  for (const bare of ['FAILED', 'PASSED', ' PASSED ']) {
    assert.throws(() => parseTestLog(bare, 'seaborn', 'swebench-v4'), ParserCrash);
    assert.deepEqual(parseTestLog(bare, 'seaborn', 'swebench-v5'), {});
  }
});

test('a test id that is an Object prototype name stays a plain key', () => {
  assert.deepEqual(Object.keys(parseTestLog('PASSED __proto__', 'pytest', 'swebench-v5')), ['__proto__']);
});
