// Finding the repository inside an image (docs/reference/containers.md): an image whose HEAD is a
// later commit over the base (as older SWE-bench harness builds left it) is used after a reset to
// the base; the answer is kept on disk per image id, so a second process runs no probe; a path
// that holds no repository is reported as such, not as a patch that did not apply.
import '../helpers/dataDir';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { testCommandFor } from '../../src/core/evaluation/script';
import { connectDocker, evaluateState, locateRepoInImage } from '../../src/infra/docker';
import { repoPathChoice } from '../../src/core/evaluation/stepSpec';
import { dataRoot } from '../../src/infra/run/stateDir';
import { createToyRepo, FIX, TEST_FILES, type ToyRepo } from '../fixtures/evaluation/toyRepo';

const BASE_IMAGE = 'chainlens/base:bookworm';
let docker: Docker;
let repo: ToyRepo;
let laterImage: string;
let dirtyImage: string;
const logDir = mkdtempSync(join(tmpdir(), 'chainlens-repo-in-image-'));

function gitIn(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'ignore' });
}

/** An image holding the toy repository at /testbed after `change` was made to a copy of it. */
function imageWith(tag: string, change: (dir: string) => void): string {
  const ctx = mkdtempSync(join(tmpdir(), 'chainlens-later-'));
  cpSync(repo.dir, join(ctx, 'repo'), { recursive: true });
  change(join(ctx, 'repo'));
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${BASE_IMAGE}\nCOPY repo /testbed\n`);
  const image = `chainlens-test/${tag}:${process.pid}`;
  execFileSync('docker', ['build', '-q', '-t', image, ctx], { stdio: 'ignore' });
  rmSync(ctx, { recursive: true, force: true });
  return image;
}

before(async () => {
  docker = await connectDocker();
  repo = createToyRepo();
  // A commit on top of the base that changes a source file: evaluating on it unreset would differ.
  laterImage = imageWith('later', (dir) => {
    writeFileSync(join(dir, 'calc.py'), 'def add(a, b):\n    return 42\n');
    gitIn(dir, 'commit', '-qam', 'environment set-up on top of the base');
  });
  // The same, with an uncommitted change: not a clean tree, so not taken for the base.
  dirtyImage = imageWith('later-dirty', (dir) => {
    gitIn(dir, 'commit', '-q', '--allow-empty', '-m', 'on top');
    writeFileSync(join(dir, 'calc.py'), 'def add(a, b):\n    return 7\n');
  });
});

after(() => {
  execFileSync('docker', ['rmi', '-f', laterImage, dirtyImage], { stdio: 'ignore' });
  rmSync(logDir, { recursive: true, force: true });
});

function evaluate(image: string, repoPathInImage?: string | null) {
  const testPatches = [repo.diffFor(TEST_FILES)];
  return evaluateState(
    {
      image,
      baseCommit: repo.baseCommit,
      repoPath: repoPathChoice(repoPathInImage),
      testPatches,
      testCmd: testCommandFor({ repo: 'toy/calc', testPatches }),
      scriptShape: 'python',
      harness: 'v5',
    },
    { localRepo: repo.dir, stateDiff: repo.diffFor(FIX) },
    {
      timeoutS: 120,
      runId: `repo-in-image-${process.pid}`,
      logPath: join(logDir, `${image.replace(/\W/g, '-')}-${String(repoPathInImage)}.log`),
      docker,
    },
  );
}

test('an image whose HEAD is a later commit over the base, with a clean tree, is found and reset to the base', async () => {
  assert.deepEqual(await locateRepoInImage(laterImage, repo.baseCommit, docker), {
    path: '/testbed',
    headIsBase: false,
  });
  assert.equal(await locateRepoInImage(dirtyImage, repo.baseCommit, docker), null);
  const r = await evaluate(laterImage);
  assert.match(r.log, /repository at \/testbed in the image/);
  assert.match(r.log, /resetting \/testbed from its HEAD to the base commit/);
  assert.equal(r.environmentError, null, r.log);
  assert.equal(r.exitCode, 0, r.log);
});

test("the probe's answer is kept on disk per image id: another process asks no container", async () => {
  const id = (await docker.getImage(laterImage).inspect()).Id.replace(/^sha256:/, '');
  const cacheDir = join(dataRoot(), 'cache', 'repo-in-image');
  assert.ok(existsSync(join(cacheDir, `${id}.json`)), readdirSync(cacheDir).join(', '));
  // A fresh process with the same data directory: the answer comes from the file, no probe container runs.
  const script = `
    const { locateRepoInImage, connectDocker } = require('./src/infra/docker');
    (async () => {
      const docker = await connectDocker();
      let created = 0;
      const create = docker.createContainer.bind(docker);
      docker.createContainer = (...a) => { created++; return create(...a); };
      const found = await locateRepoInImage(${JSON.stringify(laterImage)}, ${JSON.stringify(repo.baseCommit)}, docker);
      process.stdout.write(JSON.stringify({ found, created }));
    })();`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: join(__dirname, '../..'),
    encoding: 'utf8',
  });
  assert.deepEqual(JSON.parse(out), { found: { path: '/testbed', headIsBase: false }, created: 0 });
});

test('--repo-path-in-image naming a folder with no repository is an environment error, not a patch that failed', async () => {
  const r = await evaluate(BASE_IMAGE, '/testbed');
  assert.equal(r.patchApplied, false);
  assert.match(r.environmentError ?? '', /has no git repository at \/testbed/);
  assert.match(r.log, /ChainLens: the image has no git repository at \/testbed/);
});
