// The eval script and test command for repositories beyond Python, as the harness builds them:
// per-repository/version specs (test commands, build steps), the common script shape, calypso's
// commands from its test patch, and SWE-bench Pro steps, which need their own run script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildCommandFor,
  buildEvalScript,
  evalScriptSection,
  testCommandFor,
} from '../../../../src/core/evaluation/script';
import { UserError } from '../../../../src/core/util/errors';

const testPatch = (...paths: string[]) =>
  paths.map((p) => `diff --git a/${p} b/${p}\n--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-a\n+b\n`).join('');

test('a Multilingual repository runs the commands of its version in the harness spec, one line each', () => {
  assert.equal(
    testCommandFor({ repo: 'gin-gonic/gin', version: '3741', testPatches: [] }),
    'go test -v . -run "^TestColor"',
  );
  const gson = testCommandFor({ repo: 'google/gson', version: '2024', testPatches: [] }).split('\n');
  assert.equal(gson.length, 3);
  assert.ok(gson.every((l) => l.startsWith('mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.')));
  assert.equal(
    buildCommandFor({ repo: 'fmtlib/fmt', version: '3863' }),
    'mkdir -p build\ncmake -B build -S .\ncmake --build build --parallel $(nproc) --target ranges-test',
  );
  assert.equal(buildCommandFor({ repo: 'gin-gonic/gin', version: '3741' }), undefined);
  // A step's own build commands (from its eval script) win, even when empty.
  assert.equal(buildCommandFor({ repo: 'fmtlib/fmt', version: '3863', buildCmd: '' }), undefined);
});

test('a version the harness has no spec for is an input error naming versions it knows', () => {
  assert.throws(
    () =>
      testCommandFor({ repo: 'gin-gonic/gin', version: '9999', testPatches: [], instanceId: 'gin-gonic__gin-9999' }),
    (e: unknown) => e instanceof UserError && /gin-gonic__gin-9999: .*version '9999' \(it knows .*3741/.test(e.message),
  );
});

test("calypso's commands come from the files its test patch touches, the config chosen by version", () => {
  const patches = [
    testPatch('client/state/test/index.js', 'packages/x/__snapshots__/a.js.snap', 'test/e2e/specs/a.js'),
  ];
  assert.equal(
    testCommandFor({ repo: 'Automattic/wp-calypso', version: '10.10.0', testPatches: patches }),
    [
      "./node_modules/.bin/jest --verbose -c=test/client/jest.config.js 'client/state/test/index.js'",
      "./node_modules/.bin/jest --verbose -c=test/packages/jest.config.js 'packages/x'",
      'cd test/e2e',
      'NODE_CONFIG_ENV=test npm run test test/e2e/specs/a.js',
      'cd ../..',
    ].join('\n'),
  );
  assert.match(
    testCommandFor({ repo: 'Automattic/wp-calypso', version: '0.8', testPatches: [testPatch('client/a.js')] }),
    /^npm run test-client --verbose 'client\/a\.js'$/,
  );
});

test('a SWE-bench Pro step without test_cmds cannot run: the error says where its run script is', () => {
  assert.throws(
    () =>
      testCommandFor({ repo: 'navidrome/navidrome', testPatches: [], testFiles: ['TestDB'], instanceId: 'instance_x' }),
    (e: unknown) =>
      e instanceof UserError &&
      /instance_x is a SWE-bench Pro instance: .*run_scripts\/<instance_id>\/run_script\.sh .*TestDB.*test_cmds/.test(
        e.message,
      ),
  );
  assert.equal(
    testCommandFor({
      repo: 'navidrome/navidrome',
      testPatches: [],
      testFiles: ['TestDB'],
      testCmds: 'go test -v -run TestDB ./...',
    }),
    'go test -v -run TestDB ./...',
  );
});

test('the common shape (every language but Python): no git record, git apply --reject, build before the markers', () => {
  const script = buildEvalScript({
    repoDir: '/testbed',
    baseRef: 'base',
    testPatchFiles: ['/chainlens/test_patch_1.diff'],
    testFilesToReset: ['shapes_test.go'],
    testFilesToDelete: [],
    testCmd: 'go test -v ./...',
    shape: 'common',
    buildCmd: 'go build ./...',
  });
  const lines = script.split('\n');
  assert.ok(!lines.includes('git status'));
  assert.ok(!lines.some((l) => l.startsWith('git -c core.fileMode=false diff')));
  const apply = lines.indexOf('git apply --verbose --reject /chainlens/test_patch_1.diff');
  assert.ok(apply > 0);
  assert.equal(lines[apply + 1], 'go build ./...');
  assert.equal(lines[apply + 2], ": '>>>>> Start Test Output'");
});

test("an embedded eval script's section: the patch heredoc is skipped, v5's exit-code line is not a command", () => {
  const script = [
    'cd /testbed',
    "git apply -v - <<'EOF_114329324912'",
    ": '>>>>> Start Test Output'",
    'EOF_114329324912',
    ": '>>>>> Start Test Output'",
    'pytest -rA tests/test_x.py',
    'SWEBENCH_TEST_EXIT_CODE=$?',
    ": '>>>>> End Test Output'",
  ].join('\n');
  assert.deepEqual(evalScriptSection(script), { build: [], test: ['pytest -rA tests/test_x.py'] });
  assert.equal(evalScriptSection('pytest -rA'), null);
  // No heredoc: what precedes the marker is set-up, not build.
  assert.deepEqual(evalScriptSection("cd /x\n: '>>>>> Start Test Output'\nmake check\n: '>>>>> End Test Output'"), {
    build: [],
    test: ['make check'],
  });
});
