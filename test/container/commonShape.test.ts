// A non-Python step through the real engine: the harness's common eval-script shape (no git
// record, `git apply --verbose --reject`, the build commands before the start marker), graded
// with a non-Python parser (TAP). The repository's "runner" is a shell script, so the base image
// is enough; the toolchain logs themselves are pinned by the multilingual corpus.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { gradeLogExplained } from '../../src/core/evaluation/grading';
import { START_TEST_OUTPUT } from '../../src/core/evaluation/script';
import { connectDocker, evaluateState } from '../../src/infra/docker';
import { git, writeFiles } from '../helpers/tinyChain';

const RUN_PREFIX = `common-shape-${process.pid}`;
let docker: Docker;
let dir: string;
let base: string;
const logDir = mkdtempSync(join(tmpdir(), 'chainlens-common-logs-'));

const RUNNER = (tests: string) =>
  `#!/bin/bash\n# A TAP runner: the built library, one check per line.\nsource build/greet.sh || exit 2\nn=0; failed=0\ncheck() { n=$((n+1)); if [ "$(greet "$2")" = "$3" ]; then echo "ok $n $1"; else echo "not ok $n $1"; failed=1; fi; }\n${tests}echo "1..$n"\nexit $failed\n`;
const ONE_TEST = 'check "greets by name" Ada "hello Ada"\n';
const TWO_TESTS = ONE_TEST + 'check "greets nobody politely" "" "hello there"\n';

function diff(files: Record<string, string>): string {
  writeFiles(dir, files);
  const d = git(dir, 'diff', '--binary');
  git(dir, 'checkout', '--', '.');
  return d;
}

before(async () => {
  docker = await connectDocker();
  dir = mkdtempSync(join(tmpdir(), 'chainlens-common-repo-'));
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, {
    'lib/greet.sh': 'greet() { echo "hello $1"; }\n',
    'build.sh': '#!/bin/bash\nmkdir -p build && cp lib/greet.sh build/greet.sh\n',
    'tests/run.sh': RUNNER(ONE_TEST),
    '.gitignore': 'build/\n',
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  base = git(dir, 'rev-parse', 'HEAD').trim();
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
});

test('the common shape builds before the markers and the TAP parser grades the run as the harness would', async () => {
  const fix = diff({
    'lib/greet.sh': 'greet() { if [ -z "$1" ]; then echo "hello there"; else echo "hello $1"; fi; }\n',
  });
  const testPatch = diff({ 'tests/run.sh': RUNNER(TWO_TESTS) });
  const evaluate = (stateDiff: string, runId: string) =>
    evaluateState(
      {
        image: 'chainlens/base:bookworm',
        baseCommit: base,
        repoPath: { kind: 'detect' },
        testPatches: [testPatch],
        testCmd: 'bash tests/run.sh',
        buildCmd: 'bash build.sh',
        scriptShape: 'common',
        harness: 'v5',
      },
      { localRepo: dir, stateDiff },
      { timeoutS: 120, runId, logPath: join(logDir, runId, 'test_output.txt'), docker },
    );
  const grade = (log: string) =>
    gradeLogExplained({
      log,
      profile: 'swebench-v5',
      parser: 'tap',
      failToPass: ['greets nobody politely'],
      passToPass: ['greets by name'],
    });

  const fixed = await evaluate(fix, `${RUN_PREFIX}-fixed`);
  assert.equal(fixed.exitCode, 0, fixed.log);
  const lines = fixed.log.split('\n');
  const apply = lines.findIndex((l) => /^\+ git apply --verbose --reject \S+test_patch_1\.diff$/.test(l));
  const build = lines.indexOf('+ bash build.sh');
  const start = lines.findIndex((l) => l.includes(START_TEST_OUTPUT));
  assert.ok(apply > 0 && apply < build && build < start, fixed.log);
  assert.ok(!lines.includes('+ git status'), 'the common shape keeps no git record');
  const graded = grade(fixed.log);
  assert.deepEqual(graded.grade.status_map, { 'greets by name': 'PASSED', 'greets nobody politely': 'PASSED' });
  assert.equal(graded.grade.resolution, 'RESOLVED_FULL');

  const unfixed = await evaluate('', `${RUN_PREFIX}-unfixed`);
  assert.equal(unfixed.exitCode, 1, unfixed.log);
  const failing = grade(unfixed.log);
  assert.deepEqual(failing.grade.tests_status.FAIL_TO_PASS, { success: [], failure: ['greets nobody politely'] });
  assert.deepEqual(failing.grade.tests_status.PASS_TO_PASS, { success: ['greets by name'], failure: [] });
  assert.equal(failing.grade.resolution, 'RESOLVED_NO');
});
