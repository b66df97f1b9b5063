import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEvalScript } from '../../../../src/core/evaluation/script';

const options = {
  repoDir: '/testbed',
  baseRef: 'b036be1251767d2c9597eef1e823511a63326fa3',
  testPatchFiles: ['/chainlens/test_patch_1.diff', '/chainlens/test_patch_2.diff'],
  testFilesToReset: ['tests/test_calc.py', 'tests/my data.py'],
  testFilesToDelete: ['tests/conftest.py'],
  testCmd: 'pytest -rA tests/test_calc.py',
};

test('the eval script has the harness shape: reset, test patches, markers, exit code, reset again', () => {
  assert.equal(
    buildEvalScript(options),
    [
      '#!/bin/bash',
      'set -uxo pipefail',
      'cd /testbed',
      'git config --global --add safe.directory /testbed',
      'cd /testbed',
      'git status',
      'git -c core.fileMode=false diff b036be1251767d2c9597eef1e823511a63326fa3',
      "git checkout b036be1251767d2c9597eef1e823511a63326fa3 -- tests/test_calc.py 'tests/my data.py'",
      'rm -f tests/conftest.py',
      'git apply -v /chainlens/test_patch_1.diff',
      'git apply -v /chainlens/test_patch_2.diff',
      ": '>>>>> Start Test Output'",
      'pytest -rA tests/test_calc.py',
      'SWEBENCH_TEST_EXIT_CODE=$?',
      ": '>>>>> End Test Output'",
      'echo ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"',
      "git checkout b036be1251767d2c9597eef1e823511a63326fa3 -- tests/test_calc.py 'tests/my data.py'",
      'rm -f tests/conftest.py',
      '',
    ].join('\n'),
  );
});

test('the v4 profile does not record the exit code; a preamble runs before anything else', () => {
  const script = buildEvalScript({
    ...options,
    profile: 'v4',
    preamble: ['source /opt/miniconda3/bin/activate', 'conda activate testbed'],
  });
  assert.doesNotMatch(script, /Test Exit Code|SWEBENCH_TEST_EXIT_CODE/);
  assert.match(script, /^cd \/testbed\nsource \/opt\/miniconda3\/bin\/activate\nconda activate testbed\ngit config/m);
});

test('with nothing to reset, the script has no git checkout that would reset the whole tree', () => {
  const script = buildEvalScript({ ...options, testFilesToReset: [], testFilesToDelete: [] });
  assert.doesNotMatch(script, /git checkout|rm -f/);
});
