import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildEvalBundle,
  COPY_IN_REPO_DIR,
  RUN_EXIT,
  testExitCodeFromLog,
} from '../../../../src/core/evaluation/script';

const testPatch =
  'diff --git a/conftest.py b/conftest.py\nnew file mode 100644\n--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1 @@\n+x = 1';
const stateDiff = 'diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-a\n+b\n';
const base = 'b036be1251767d2c9597eef1e823511a63326fa3';
const file = (b: ReturnType<typeof buildEvalBundle>, name: string) =>
  b.files.find((f) => f.path === `/chainlens/${name}`);

test('an image that holds the repo: state diff applied in place, tests reset to the real base commit', () => {
  const b = buildEvalBundle({
    repo: { kind: 'in-image', path: '/testbed', baseCommit: base },
    stateDiff,
    testPatches: [testPatch],
    testCmd: 'pytest -rA',
  });
  assert.deepEqual(b.command, ['/bin/bash', '/chainlens/run.sh']);
  assert.deepEqual(b.stdinCommand, [
    '/bin/sh',
    '-c',
    `command -v tar >/dev/null 2>&1 || exit ${RUN_EXIT.noTar}; tar -x -f - -C / && exec /bin/bash /chainlens/run.sh`,
  ]);
  assert.equal(b.repoDir, '/testbed');
  assert.equal(file(b, 'prepare.sh'), undefined);
  const run = file(b, 'run.sh')!.content;
  assert.match(
    run,
    new RegExp(
      `bash /chainlens/apply_state.sh \\|\\| exit ${RUN_EXIT.patchFailed}\nexec bash /chainlens/eval.sh 2>&1\n$`,
    ),
  );
  assert.match(file(b, 'apply_state.sh')!.content, /^cd \/testbed \|\| exit 1$/m);
  assert.match(file(b, 'eval.sh')!.content, /^rm -f conftest.py\ngit apply -v \/chainlens\/test_patch_1.diff$/m);
  // A patch missing its last newline would be "corrupt" to git apply.
  assert.ok(file(b, 'test_patch_1.diff')!.content.endsWith('+x = 1\n'));
});

test('an image without the repo: the copy is indexed first, and the eval script resets to the real base commit', () => {
  const b = buildEvalBundle({
    repo: { kind: 'copy-in', baseCommit: base },
    stateDiff,
    testPatches: [testPatch],
    testCmd: 'pytest -rA',
  });
  assert.equal(b.repoDir, COPY_IN_REPO_DIR);
  // The copy's git directory holds the base commit itself (src/infra/docker/repoArchive.ts).
  assert.equal(b.baseRef, base);
  assert.equal(file(b, 'prepare.sh'), undefined);
  assert.match(
    file(b, 'run.sh')!.content,
    new RegExp(`-C /chainlens/repo reset -q \\|\\| .*exit ${RUN_EXIT.setupFailed}; }\nbash /chainlens/apply_state.sh`),
  );
  assert.match(file(b, 'eval.sh')!.content, new RegExp(`git -c core.fileMode=false diff ${base}`));
});

test('an empty state diff evaluates the base commit without a patch step', () => {
  const b = buildEvalBundle({
    repo: { kind: 'in-image', path: '/testbed', baseCommit: base },
    stateDiff: '\n',
    testPatches: [testPatch],
    testCmd: 'pytest -rA',
  });
  assert.equal(file(b, 'state.diff'), undefined);
  assert.doesNotMatch(file(b, 'run.sh')!.content, /apply_state/);
});

test("the test command's exit code is read from the script's echo, not from its trace or forged output", () => {
  const log = [
    '>>>>> Test Exit Code: 0',
    '+ SWEBENCH_TEST_EXIT_CODE=1',
    "+ : '>>>>> End Test Output'",
    "+ echo '>>>>> Test Exit Code: 1'",
    '>>>>> Test Exit Code: 1',
  ].join('\n');
  assert.equal(testExitCodeFromLog(log), 1);
  assert.equal(testExitCodeFromLog("+ echo '>>>>> Test Exit Code: 0'\n"), null);
});

test('an image said to hold the repo is checked first: no git work tree there ends the run with its own exit code', () => {
  const b = buildEvalBundle({
    repo: { kind: 'in-image', path: '/srv/app', baseCommit: base },
    stateDiff,
    testPatches: [testPatch],
    testCmd: 'pytest -rA',
  });
  const run = file(b, 'run.sh')!.content.split('\n');
  const check = run.findIndex((l) => l.includes(`exit ${RUN_EXIT.noRepoInImage}`));
  const apply = run.findIndex((l) => l.includes('apply_state.sh'));
  assert.ok(check > 0 && check < apply, 'the check runs before the state diff is applied');
  assert.match(run[check], /-C \/srv\/app rev-parse --verify -q HEAD/);
  assert.ok(!run.some((l) => l.includes('reset -q --hard')), 'a HEAD at the base is used as it is');
});

test('an image whose HEAD is a later commit over the base: the work tree is reset to the base before the state diff', () => {
  const b = buildEvalBundle({
    repo: { kind: 'in-image', path: '/testbed', baseCommit: base, resetToBase: true },
    stateDiff,
    testPatches: [testPatch],
    testCmd: 'pytest -rA',
  });
  const run = file(b, 'run.sh')!.content.split('\n');
  const reset = run.findIndex((l) => l.includes(`reset -q --hard ${base} || exit ${RUN_EXIT.setupFailed}`));
  const apply = run.findIndex((l) => l.includes('apply_state.sh'));
  assert.ok(reset > 0 && reset < apply, run.join('\n'));
});
