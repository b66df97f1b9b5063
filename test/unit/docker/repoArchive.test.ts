// The repository copy an image without the repository receives (src/infra/docker/repoArchive.ts),
// made from a real git repository and unpacked by the system's tar, as a container's tar does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRepoArchive } from '../../../src/infra/docker/repoArchive';
import { TAR_TRAILER } from '../../../src/infra/docker/tar';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' }).trim();

function repoWithHistory(): { dir: string; base: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-copy-src-'));
  git(dir, 'init', '-q', '.');
  writeFileSync(join(dir, 'old.txt'), 'first\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'first');
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'tests', 'test_a.py'), 'def test_a():\n    assert True\n');
  writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\necho $Format:%H$\n', { mode: 0o755 });
  // Export attributes that would leave the tests out and rewrite run.sh in a plain git archive.
  writeFileSync(join(dir, '.gitattributes'), 'tests export-ignore\nrun.sh export-subst\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(join(dir, 'later.txt'), 'after the base\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'later');
  return { dir, base };
}

async function unpack(copy: Awaited<ReturnType<typeof openRepoArchive>>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of copy.stream) parts.push(chunk as Buffer);
  await copy.done;
  const out = mkdtempSync(join(tmpdir(), 'chainlens-copy-out-'));
  writeFileSync(join(out, 'copy.tar'), Buffer.concat([...parts, TAR_TRAILER]));
  execFileSync('tar', ['-xf', 'copy.tar'], { cwd: out });
  return join(out, 'r');
}

test('the copy holds the base commit alone, every file of it, and git there sees a clean tree at the base', async () => {
  const { dir, base } = repoWithHistory();
  const before = git(dir, 'for-each-ref');
  const copied = await unpack(await openRepoArchive(dir, base.slice(0, 12), 'r/'));
  // What run.sh does first in the container: the index, from the base commit and the files.
  git(copied, 'reset', '-q');
  assert.equal(git(copied, 'rev-parse', 'HEAD'), base);
  assert.equal(git(copied, 'rev-list', '--count', 'HEAD'), '1', 'shallow: the history stays on the host');
  assert.equal(git(copied, 'status', '--porcelain'), '');
  assert.equal(git(copied, 'symbolic-ref', 'HEAD'), 'refs/heads/main');
  // export-ignore and export-subst are off: every file, as committed.
  assert.equal(readFileSync(join(copied, 'tests', 'test_a.py'), 'utf8'), 'def test_a():\n    assert True\n');
  assert.equal(readFileSync(join(copied, 'run.sh'), 'utf8'), '#!/bin/sh\necho $Format:%H$\n');
  assert.equal(existsSync(join(copied, 'later.txt')), false);
  // What the eval script then does: reset test files to the base commit, 3-way apply.
  git(copied, 'checkout', base, '--', 'tests/test_a.py');
  git(copied, 'fsck', '--no-progress');
  // The user's repository is untouched.
  assert.equal(git(dir, 'for-each-ref'), before);
  assert.equal(git(dir, 'status', '--porcelain'), '');
});

test('a repository without the commit is named in the error, before anything is streamed', async () => {
  const { dir } = repoWithHistory();
  await assert.rejects(
    openRepoArchive(dir, 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef', 'r/'),
    /is not a git repository holding commit deadbeef/,
  );
});
