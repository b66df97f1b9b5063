// evaluateState against the real Docker engine: one container per evaluation, the harness's
// eval script, and no container left behind whatever way the evaluation ends (containers started
// ahead of their evaluation included).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import {
  APPLY_PATCH_FAILED,
  END_TEST_OUTPUT,
  START_TEST_OUTPUT,
  testCommandFor,
} from '../../src/core/evaluation/script';
import {
  connectDocker,
  detectRepoPath,
  evaluateState,
  managedLabels,
  sweepContainers,
  WarmContainer,
  type ContainerRunOptions,
} from '../../src/infra/docker';
import { repoPathChoice } from '../../src/core/evaluation/stepSpec';
import { BASE_FILES, createToyRepo, FIX, TEST_FILES, type ToyRepo } from '../fixtures/evaluation/toyRepo';

const BASE_IMAGE = 'chainlens/base:bookworm';
const RUN_PREFIX = `runner-test-${process.pid}`;
let runCounter = 0;
let docker: Docker;
let repo: ToyRepo;
let testPatch: string;
let fixDiff: string;
let withRepoImage: string;
let noTarImage: string;
const logDir = mkdtempSync(join(tmpdir(), 'chainlens-runner-logs-'));

const nextRunId = () => `${RUN_PREFIX}-${++runCounter}`;

interface Overrides extends Partial<ContainerRunOptions> {
  image?: string;
  stateDiff?: string;
  testPatches?: string[];
  repoPathInImage?: string | null;
}

function evaluate({ image, stateDiff, testPatches: patches, repoPathInImage, ...overrides }: Overrides = {}) {
  const runId = overrides.runId ?? nextRunId();
  const testPatches = patches ?? [testPatch];
  return evaluateState(
    {
      image: image ?? BASE_IMAGE,
      baseCommit: repo.baseCommit,
      repoPath: repoPathChoice(repoPathInImage),
      testPatches,
      testCmd: testCommandFor({ repo: 'toy/calc', testPatches }),
      scriptShape: 'python',
      harness: 'v5',
    },
    { localRepo: repo.dir, stateDiff: stateDiff ?? fixDiff },
    {
      timeoutS: 120,
      runId,
      logPath: join(logDir, runId, 'test_output.txt'),
      docker,
      ...overrides,
    },
  );
}

async function containersOf(runId: string): Promise<number> {
  return (await docker.listContainers({ all: true, filters: { label: [`chainlens.run=${runId}`] } })).length;
}

before(async () => {
  docker = await connectDocker();
  repo = createToyRepo();
  testPatch = repo.diffFor(TEST_FILES);
  fixDiff = repo.diffFor(FIX);
  // An image that holds the repository (with its .git) at /testbed, like SWE-bench images.
  const ctx = mkdtempSync(join(tmpdir(), 'chainlens-withrepo-'));
  cpSync(repo.dir, join(ctx, 'repo'), { recursive: true });
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${BASE_IMAGE}\nCOPY repo /testbed\n`);
  withRepoImage = `chainlens-test/withrepo:${repo.baseCommit.slice(0, 12)}-${process.pid}`;
  execFileSync('docker', ['build', '-q', '-t', withRepoImage, ctx], { stdio: 'ignore' });
  // An image without tar: the runner's files cannot be streamed in on stdin.
  noTarImage = `chainlens-test/notar:${process.pid}`;
  execFileSync('docker', ['build', '-q', '-t', noTarImage, '-'], {
    input: `FROM ${BASE_IMAGE}\nRUN rm -f /usr/bin/tar /bin/tar\n`,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  rmSync(ctx, { recursive: true, force: true });
});

after(async () => {
  execFileSync('docker', ['rmi', '-f', withRepoImage, noTarImage], { stdio: 'ignore' });
  rmSync(logDir, { recursive: true, force: true });
});

test('a state that fixes the bug passes the test patch (repository copied into a plain image)', async () => {
  const chunks: string[] = [];
  const runId = nextRunId();
  const r = await evaluate({ runId, onLog: (c) => chunks.push(c) });
  assert.equal(r.environmentError, null, r.log);
  assert.equal(r.patchApplied, true);
  assert.equal(r.exitCode, 0, r.log);
  assert.match(r.log, /repository copied in at \/chainlens\/repo/);
  assert.ok(r.log.includes(START_TEST_OUTPUT) && r.log.includes(END_TEST_OUTPUT));
  assert.match(r.log, /^PASSED tests\/test_calc.py::test_add_zero$/m);
  assert.match(r.log, /^PASSED tests\/test_calc.py::test_add$/m);
  assert.match(r.log, /^>>>>> Test Exit Code: 0$/m);
  assert.equal(chunks.join(''), r.log);
  assert.equal(readFileSync(r.logPath, 'utf8'), r.log);
  assert.equal(await containersOf(runId), 0);
});

test('the unfixed base state fails the new test and keeps the old one passing', async () => {
  const r = await evaluate({ stateDiff: '' });
  assert.equal(r.patchApplied, true);
  assert.equal(r.exitCode, 1, r.log);
  assert.match(r.log, /^FAILED tests\/test_calc.py::test_add - assert -1 == 5/m);
  assert.match(r.log, /^PASSED tests\/test_calc.py::test_add_zero$/m);
});

test('an image that holds the repository is found at /testbed and used in place', async () => {
  assert.equal(await detectRepoPath(withRepoImage, repo.baseCommit, docker, nextRunId()), '/testbed');
  assert.equal(await detectRepoPath(BASE_IMAGE, repo.baseCommit, docker, nextRunId()), null);
  const r = await evaluate({ image: withRepoImage });
  assert.equal(r.exitCode, 0, r.log);
  assert.match(r.log, /repository at \/testbed in the image/);
  assert.match(r.log, /^rootdir: \/testbed$/m);
  assert.match(r.log, new RegExp(`git checkout ${repo.baseCommit} -- tests/test_calc.py`));
});

test('a conftest.py from the state under test is deleted when the test patch adds one, and edited test files are reset', async () => {
  // Rewrites every test report to "passed": the known way to game the harness.
  const gaming =
    'import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = "passed"\n';
  const cheatingState = repo.diffFor({
    'tests/conftest.py': gaming,
    'tests/test_calc.py': BASE_FILES['tests/test_calc.py'] + '\n\ndef test_add():\n    pass\n',
  });
  const patchWithConftest = repo.diffFor({ ...TEST_FILES, 'tests/conftest.py': 'import pytest\n' });

  const closed = await evaluate({ stateDiff: cheatingState, testPatches: [patchWithConftest] });
  assert.equal(closed.patchApplied, true);
  assert.match(closed.log, /^rm -f tests\/conftest.py$|^\+ rm -f tests\/conftest.py$/m);
  assert.match(closed.log, /^FAILED tests\/test_calc.py::test_add/m, closed.log);
  assert.equal(closed.exitCode, 1);

  // Control: when the test patch does not add conftest.py the hole stays open, as in the harness;
  // this shows the gaming conftest really turns the failing test green.
  const open = await evaluate({ stateDiff: cheatingState, testPatches: [testPatch] });
  assert.match(open.log, /^PASSED tests\/test_calc.py::test_add( - .*)?$/m, open.log);
});

test('an image without tar gets the files (and the repository copy) through the Docker API instead', async () => {
  const r = await evaluate({ image: noTarImage });
  assert.equal(r.exitCode, 0, r.log);
  assert.match(r.log, /the image has no tar; copying the files in through the Docker API/);
  assert.match(r.log, /^PASSED tests\/test_calc.py::test_add$/m);
});

test('a state diff that does not apply: patchApplied=false and no test runs', async () => {
  const stale =
    'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def mul(a, b):\n-    return a + b\n+    return a * b\n';
  const r = await evaluate({ stateDiff: stale });
  assert.equal(r.patchApplied, false);
  assert.equal(r.exitCode, null);
  assert.equal(r.environmentError, null);
  assert.match(r.log, new RegExp(`^${APPLY_PATCH_FAILED}$`, 'm'));
  assert.match(r.log, /Failed to apply patch to container: patch --batch --forward --fuzz=5 -p1 -i/);
  assert.ok(!r.log.includes(START_TEST_OUTPUT));
});

const slowPatch = () =>
  repo.diffFor({ ...TEST_FILES, 'tests/test_slow.py': 'import time\n\n\ndef test_slow():\n    time.sleep(600)\n' });

test('a run longer than the timeout is killed, logged like the harness, and its container removed', async () => {
  const runId = nextRunId();
  // The timeout covers the whole run, patch application included: on a loaded machine that alone
  // can take seconds, so the limit leaves room for it and the test outlasts it by far.
  const r = await evaluate({ runId, testPatches: [slowPatch()], timeoutS: 30 });
  assert.equal(r.timedOut, true);
  assert.equal(r.exitCode, null);
  assert.equal(r.patchApplied, true);
  assert.match(r.log, /Timeout error: 30 seconds exceeded\.\n$/);
  assert.match(readFileSync(r.logPath, 'utf8'), /Timeout error: 30 seconds exceeded\.\n$/);
  assert.equal(await containersOf(runId), 0);
});

test('cancelling through the AbortSignal mid-run stops the tests and removes the container', async () => {
  const runId = nextRunId();
  const controller = new AbortController();
  let seen = '';
  const r = await evaluate({
    runId,
    testPatches: [slowPatch()],
    signal: controller.signal,
    onLog: (c) => {
      seen += c;
      if (seen.includes(START_TEST_OUTPUT)) controller.abort();
    },
  });
  assert.equal(r.cancelled, true);
  assert.equal(r.timedOut, false);
  assert.equal(r.exitCode, null);
  assert.ok(r.log.includes(START_TEST_OUTPUT) && !r.log.includes(END_TEST_OUTPUT));
  assert.equal(await containersOf(runId), 0);
});

test('a missing image is an environment error naming the image and how to provide it', async () => {
  const runId = nextRunId();
  const r = await evaluate({ runId, image: 'chainlens-test/does-not-exist:1' });
  assert.match(r.environmentError ?? '', /chainlens-test\/does-not-exist:1/);
  assert.match(r.environmentError ?? '', /docker pull chainlens-test\/does-not-exist:1.*docker load/);
  assert.equal(r.patchApplied, false);
  assert.equal(r.exitCode, null);
  assert.match(readFileSync(r.logPath, 'utf8'), /does-not-exist/);
  assert.equal(await containersOf(runId), 0);
});

test('running out of memory is reported as the environment, not as failing tests', async () => {
  const hungry = repo.diffFor({
    ...TEST_FILES,
    'tests/test_hungry.py': 'def test_hungry():\n    x = bytearray(400 * 1024 * 1024)\n    assert x\n',
  });
  const r = await evaluate({ testPatches: [hungry], memoryLimitBytes: 96 * 1024 * 1024 });
  assert.match(r.environmentError ?? '', /ran out of memory \(limit 96 MiB\)/, r.log);
});

test('sweepContainers removes containers a run left behind', async () => {
  const runId = nextRunId();
  await docker.createContainer({ Image: BASE_IMAGE, Cmd: ['true'], Labels: managedLabels(runId) });
  assert.equal(await containersOf(runId), 1);
  assert.equal(await sweepContainers(runId, docker), 1);
  assert.equal(await containersOf(runId), 0);
});

/** A container started ahead (warmContainer.ts), labelled with a run of its own to count it by. */
function startAhead(image: string): { warm: WarmContainer; runId: string } {
  const runId = nextRunId();
  return { warm: WarmContainer.start(docker, { image, runId, name: `chainlens-${runId}` }), runId };
}

test('a container started ahead is the one the evaluation of its image runs in, and is removed after', async () => {
  const { warm, runId } = startAhead(BASE_IMAGE);
  const r = await evaluate({ warm });
  assert.equal(r.environmentError, null, r.log);
  assert.equal(r.exitCode, 0, r.log);
  assert.match(r.log, /^PASSED tests\/test_calc.py::test_add$/m);
  // Taken: no one else can have it, and the evaluation removed it as its own.
  assert.equal(await warm.take(BASE_IMAGE, undefined, null), undefined);
  assert.equal(await containersOf(runId), 0);
});

test('a container started ahead for another image is removed, and the evaluation starts its own', async () => {
  const { warm, runId } = startAhead(withRepoImage);
  const r = await evaluate({ warm });
  assert.equal(r.exitCode, 0, r.log);
  assert.match(r.log, /repository copied in at \/chainlens\/repo/);
  assert.equal(await containersOf(runId), 0);
});

test('a container started ahead with the repository copy already on its stdin grades as one copied at evaluation', async () => {
  const plain = await evaluate({ repoPathInImage: null });
  const { warm, runId } = startAhead(BASE_IMAGE);
  warm.stageRepository(repo.dir, repo.baseCommit);
  const staged = await evaluate({ warm, repoPathInImage: null });
  assert.equal(staged.environmentError, null, staged.log);
  assert.equal(staged.exitCode, 0, staged.log);
  // The same lines, but for pytest's timings, in any order: the container's stdout and stderr
  // are two pipes the engine copies separately, so which of two writes comes first differs between
  // runs (seen in CI). git apply writes "Checking patch X..." and its newline as two writes, so
  // stdout's `>>>>> Applied Patch` can even land between them, mid-line (also seen in CI): its
  // verbose messages are counted apart from the lines.
  const gitApplyMessage = /(Checking patch \S+\.\.\.|Applied patch \S+ cleanly\.)/g;
  const lines = (log: string) => {
    const text = log.replace(/ in \d+\.\d+s /g, ' in Ns ');
    const messages = (text.match(gitApplyMessage) ?? []).sort();
    const rest = text
      .replace(gitApplyMessage, '')
      .split('\n')
      .filter((line) => line !== '');
    return { messages, lines: rest.sort() };
  };
  assert.deepEqual(lines(staged.log), lines(plain.log));
  assert.ok(lines(plain.log).messages.length >= 4, plain.log);
  assert.match(staged.log, new RegExp(`git -c core.fileMode=false diff ${repo.baseCommit}`));
  assert.equal(await containersOf(runId), 0);
});

test('a container holding the copy of another base commit is removed, and the evaluation starts its own', async () => {
  const { warm, runId } = startAhead(BASE_IMAGE);
  warm.stageRepository(repo.dir, repo.baseCommit);
  assert.equal(await warm.take(BASE_IMAGE, undefined, 'f'.repeat(40)), undefined);
  assert.equal(await containersOf(runId), 0);
  // Nor is it taken for an image that holds the repository (no copy wanted).
  const other = startAhead(BASE_IMAGE);
  other.warm.stageRepository(repo.dir, repo.baseCommit);
  assert.equal(await other.warm.take(BASE_IMAGE, undefined, null), undefined);
  assert.equal(await containersOf(other.runId), 0);
});

test('with onContainerRemoval the result comes while the container is still being removed; awaiting it leaves none', async () => {
  const runId = nextRunId();
  let removal: Promise<void> | undefined;
  const r = await evaluate({ runId, onContainerRemoval: (removed) => (removal = removed) });
  assert.equal(r.exitCode, 0, r.log);
  assert.ok(removal, 'the removal was handed over');
  await removal;
  assert.equal(await containersOf(runId), 0);
});

test('a container started ahead and never used is removed by discard', async () => {
  const { warm, runId } = startAhead(BASE_IMAGE);
  await warm.discard();
  assert.equal(await containersOf(runId), 0);
  await warm.discard();
});

test('no ChainLens container of this suite is left on the engine', async () => {
  const left = await docker.listContainers({ all: true, filters: { label: ['chainlens.managed=true'] } });
  assert.deepEqual(
    left.filter((c) => c.Labels['chainlens.run']?.startsWith(RUN_PREFIX)).map((c) => c.Names[0]),
    [],
  );
});
