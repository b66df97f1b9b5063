// F2P/P2P buckets and resolution under each harness version (docs/reference/grading.md, "From log to verdict").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildInstanceReport,
  buildTestsStatus,
  evalTypeForRepo,
  gradeLog,
  parserForRepo,
  resolutionOf,
  type TestsStatus,
} from '../../../../src/core/evaluation/grading/index';

const sm = (entries: Record<string, string>) => new Map(Object.entries(entries));
const bucket = (success: string[], failure: string[]) => ({ success, failure });
const tests = (f2p: ReturnType<typeof bucket>, p2p: ReturnType<typeof bucket>): TestsStatus => ({
  FAIL_TO_PASS: f2p,
  PASS_TO_PASS: p2p,
  FAIL_TO_FAIL: bucket([], []),
  PASS_TO_FAIL: bucket([], []),
});

test('v4: PASSED/XFAIL pass, missing/FAILED/ERROR fail, SKIPPED and unknown statuses land in neither list', () => {
  const map = sm({ a: 'PASSED', b: 'XFAIL', c: 'FAILED', d: 'ERROR', e: 'SKIPPED', f: 'ERROR:' });
  const r = buildTestsStatus(map, ['a', 'b', 'c', 'd', 'e', 'f', 'g'], ['e', 'a', 'f'], 'pass_and_fail', 'swebench-v4');
  assert.deepEqual(r.FAIL_TO_PASS, bucket(['a', 'b'], ['c', 'd', 'g']));
  assert.deepEqual(r.PASS_TO_PASS, bucket(['a'], []));
  assert.deepEqual(r.FAIL_TO_FAIL, bucket([], []));
});

test('v5: a skipped F2P test fails, a skipped P2P test is kept; unknown statuses still land nowhere', () => {
  const map = sm({ a: 'PASSED', e: 'SKIPPED', f: 'ERROR:' });
  const r = buildTestsStatus(map, ['e', 'a', 'f'], ['e', 'f', 'g'], 'pass_and_fail', 'swebench-v5');
  assert.deepEqual(r.FAIL_TO_PASS, bucket(['a'], ['e']));
  assert.deepEqual(r.PASS_TO_PASS, bucket(['e'], ['g']));
});

test('v5: truncated parametrized ids match by prefix only when the matches agree; v4 never', () => {
  const map = sm({
    't.py::x[log(photon / m**2 s)]': 'PASSED',
    't.py::y[args1-None]': 'PASSED',
    't.py::y[args1-No-value]': 'XFAIL',
    't.py::z[a-1]': 'PASSED',
    't.py::z[a-2]': 'FAILED',
    't.py::w[k-1]': 'SKIPPED',
    't.py::w[k-2]': 'FAILED',
  });
  const ids = [
    't.py::x[log(photon',
    't.py::y[args1-No',
    't.py::z[a-',
    't.py::x[log(photon / m**2 s)',
    't.py::q[',
    't.py::z[a]',
  ];
  const v5 = buildTestsStatus(map, ids, [], 'pass_and_fail', 'swebench-v5');
  assert.deepEqual(
    v5.FAIL_TO_PASS,
    bucket(
      ['t.py::x[log(photon', 't.py::y[args1-No', 't.py::x[log(photon / m**2 s)'],
      ['t.py::z[a-', 't.py::q[', 't.py::z[a]'],
    ),
  );
  const v4 = buildTestsStatus(map, ids, [], 'pass_and_fail', 'swebench-v4');
  assert.deepEqual(v4.FAIL_TO_PASS.success, []);
  // SKIPPED and FAILED agree (both "not passing"); the first match in log order decides P2P.
  const p2p = buildTestsStatus(map, [], ['t.py::w['], 'pass_and_fail', 'swebench-v5');
  assert.deepEqual(p2p.PASS_TO_PASS, bucket(['t.py::w['], []));
  const reordered = sm({ 't.py::w[k-2]': 'FAILED', 't.py::w[k-1]': 'SKIPPED' });
  assert.deepEqual(
    buildTestsStatus(reordered, [], ['t.py::w['], 'pass_and_fail', 'swebench-v5').PASS_TO_PASS,
    bucket([], ['t.py::w[']),
  );
});

test('fail_only: only an exactly matching FAILED fails, for F2P and P2P, in both versions', () => {
  const map = sm({ a: 'FAILED', b: 'ERROR', 'c[x y]': 'FAILED' });
  for (const profile of ['swebench-v4', 'swebench-v5'] as const) {
    const r = buildTestsStatus(map, ['a', 'b', 'missing', 'c[x'], ['a', 'b'], 'fail_only', profile);
    assert.deepEqual(r.FAIL_TO_PASS, bucket(['b', 'missing', 'c[x'], ['a']));
    assert.deepEqual(r.PASS_TO_PASS, bucket(['b'], ['a']));
  }
});

test('resolution: FULL iff both ratios are 1 (empty counts as 1); PARTIAL iff 0 < F2P < 1 with P2P 1', () => {
  assert.equal(resolutionOf(tests(bucket([], []), bucket([], []))), 'RESOLVED_FULL');
  assert.equal(resolutionOf(tests(bucket(['a'], []), bucket(['b'], []))), 'RESOLVED_FULL');
  assert.equal(resolutionOf(tests(bucket(['a'], ['c']), bucket(['b'], []))), 'RESOLVED_PARTIAL');
  assert.equal(resolutionOf(tests(bucket(['a'], ['c']), bucket([], ['b']))), 'RESOLVED_NO');
  assert.equal(resolutionOf(tests(bucket([], ['c']), bucket([], []))), 'RESOLVED_NO');
  assert.equal(resolutionOf(tests(bucket(['a'], []), bucket(['b'], ['d']))), 'RESOLVED_NO');
});

test('gradeLog keeps the order of the given F2P/P2P lists', () => {
  const log = [
    "+ : '>>>>> Start Test Output'",
    'PASSED t.py::b',
    'PASSED t.py::a',
    'FAILED t.py::c',
    "+ : '>>>>> End Test Output'",
  ].join('\n');
  const g = gradeLog({
    log,
    profile: 'swebench-v5',
    parser: 'pytest',
    failToPass: ['t.py::c', 't.py::a', 't.py::b'],
    passToPass: [],
  });
  assert.deepEqual(g.tests_status.FAIL_TO_PASS, bucket(['t.py::a', 't.py::b'], ['t.py::c']));
  assert.equal(g.resolution, 'RESOLVED_PARTIAL');
});

test('instance report in the harness shape: tests_status only for a usable log', () => {
  const log = ["+ : '>>>>> Start Test Output'", 'PASSED t.py::a', "+ : '>>>>> End Test Output'"].join('\n');
  const ok = gradeLog({ log, profile: 'swebench-v5', parser: 'pytest', failToPass: ['t.py::a'], passToPass: [] });
  assert.deepEqual(buildInstanceReport('o__r-1', 'diff', ok), {
    'o__r-1': {
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: true,
      resolved: true,
      tests_status: ok.tests_status,
    },
  });
  const bad = gradeLog({
    log: 'nothing',
    profile: 'swebench-v5',
    parser: 'pytest',
    failToPass: ['t.py::a'],
    passToPass: [],
  });
  assert.deepEqual(buildInstanceReport('o__r-1', 'diff', bad), {
    'o__r-1': { patch_is_None: false, patch_exists: true, patch_successfully_applied: false, resolved: false },
  });
  assert.deepEqual(buildInstanceReport('o__r-1', null, null), {
    'o__r-1': { patch_is_None: true, patch_exists: false, patch_successfully_applied: false, resolved: false },
  });
});

test('repository -> parser and eval type, as the harness maps them', () => {
  assert.equal(parserForRepo('astropy/astropy'), 'pytest-v2');
  assert.equal(parserForRepo('scikit-learn/scikit-learn'), 'pytest-v2');
  assert.equal(parserForRepo('sphinx-doc/sphinx'), 'pytest-v2');
  assert.equal(parserForRepo('psf/requests'), 'pytest-options');
  assert.equal(parserForRepo('pydicom/pydicom'), 'pytest-options');
  assert.equal(parserForRepo('pylint-dev/pylint'), 'pytest-options');
  assert.equal(parserForRepo('django/django'), 'django');
  assert.equal(parserForRepo('sympy/sympy'), 'sympy');
  assert.equal(parserForRepo('mwaskom/seaborn'), 'seaborn');
  assert.equal(parserForRepo('matplotlib/matplotlib'), 'matplotlib');
  assert.equal(parserForRepo('pylint-dev/astroid'), 'pytest');
  assert.equal(parserForRepo('meltano/sdk'), 'pytest');
  assert.equal(parserForRepo('constructor'), 'pytest');
  assert.equal(evalTypeForRepo('openlayers/openlayers', 'swebench-v5'), 'fail_only');
  assert.equal(evalTypeForRepo('openlayers/openlayers', 'swebench-v4'), 'pass_and_fail');
  assert.equal(evalTypeForRepo('markedjs/marked', 'swebench-v4'), 'fail_only');
  assert.equal(evalTypeForRepo('django/django', 'swebench-v5'), 'pass_and_fail');
});
