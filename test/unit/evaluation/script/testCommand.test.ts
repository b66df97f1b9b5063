import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_DJANGO, TEST_SYMPY, testCommandFor, testDirectives } from '../../../../src/core/evaluation/script';

const fixtures = join(__dirname, '../../../fixtures/evaluation');
const lite: { instance_id: string; repo: string; version: string; test_patch: string }[] = JSON.parse(
  readFileSync(join(fixtures, 'swebench_lite_test_patches.json'), 'utf8'),
);
const instance = (id: string) => lite.find((i) => i.instance_id === id)!;
const commandOf = (id: string) => {
  const i = instance(id);
  return testCommandFor({ repo: i.repo, version: i.version, testPatches: [i.test_patch] });
};

test('django runs the touched test modules as dotted names, leaving out helper modules', () => {
  // tests/sitemaps_tests/urls/http.py is not a test module by the harness's rule.
  assert.equal(commandOf('django__django-16255'), `${TEST_DJANGO} sitemaps_tests.test_http`);
  assert.equal(commandOf('django__django-15781'), `${TEST_DJANGO} user_commands.tests`);
});

test('django 1.9 runs without --parallel, as in the harness', () => {
  const i = instance('django__django-15781');
  assert.equal(
    testCommandFor({ repo: i.repo, version: '1.9', testPatches: [i.test_patch] }),
    './tests/runtests.py --verbosity 2 user_commands.tests',
  );
});

test('sympy uses bin/test with file paths; other repositories pytest -rA', () => {
  assert.equal(commandOf('sympy__sympy-13031'), `${TEST_SYMPY} sympy/matrices/tests/test_sparse.py`);
  assert.equal(commandOf('pytest-dev__pytest-11143'), 'pytest -rA testing/test_assertrewrite.py');
  assert.equal(commandOf('scikit-learn__scikit-learn-13584'), 'pytest -rA sklearn/utils/tests/test_pprint.py');
});

test('directives leave out data files and deleted files, keep rename targets, and quote odd paths', () => {
  const mixed = readFileSync(join(fixtures, 'mixed.diff'), 'utf8');
  assert.deepEqual(testDirectives([mixed], 'pytest'), [
    'pkg/mod.py',
    'tests/blob.bin',
    'tests/conftest.py',
    'tests/data file.py',
    'tests/test_renamed_dst.py',
  ]);
  assert.match(testCommandFor({ repo: 'o/r', testPatches: [mixed] }), / 'tests\/data file\.py' /);
});

test('directives of a chain of test patches are the union, in order, without repeats', () => {
  const a = instance('pytest-dev__pytest-11143').test_patch;
  const b = instance('scikit-learn__scikit-learn-13584').test_patch;
  assert.deepEqual(testDirectives([a, b, a], 'pytest'), [
    'testing/test_assertrewrite.py',
    'sklearn/utils/tests/test_pprint.py',
  ]);
});

test("a dataset's own test command is used verbatim", () => {
  const i = instance('django__django-16255');
  assert.equal(
    testCommandFor({ repo: i.repo, testCmds: ' pytest -x tests/unit ', testPatches: [i.test_patch] }),
    'pytest -x tests/unit',
  );
  assert.equal(
    testCommandFor({ repo: i.repo, testCmds: null, testPatches: [i.test_patch] }),
    `${TEST_DJANGO} sitemaps_tests.test_http`,
  );
});
