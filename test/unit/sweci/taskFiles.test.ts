// The task's repository archive and its two states, with real zip archives (Python's zipfile) and
// real git: no Docker needed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractCodeArchive } from '../../../src/infra/sweci/codeArchive';
import { buildTaskCommits } from '../../../src/infra/sweci/taskCommits';
import { Git } from '../../../src/infra/git/git';
import { buildTaskRepo } from '../../helpers/sweciTask';

function zipWith(path: string, entries: Record<string, string>): void {
  execFileSync('python3', [
    '-c',
    'import sys, json, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n  for k, v in json.loads(sys.argv[2]).items(): z.writestr(k, v)',
    path,
    JSON.stringify(entries),
  ]);
}

test('the repository archive: unpacked at its top or inside one wrapper folder; escaping entries and non-zips refused', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-sweci-zip-'));
  try {
    const repo = join(root, 'src', 'calckit');
    buildTaskRepo(repo);
    const wrapped = join(root, 'wrapped.zip');
    execFileSync('python3', ['-m', 'zipfile', '-c', wrapped, repo]);
    const top = await extractCodeArchive('t', wrapped, join(root, 'out1'));
    assert.equal(top, join(root, 'out1', 'calckit'));
    assert.ok(existsSync(join(top, '.git', 'HEAD')));

    const evil = join(root, 'evil.zip');
    zipWith(evil, { '.git/HEAD': 'ref: refs/heads/main\n', '../escaped.txt': 'x' });
    // yauzl refuses such an entry itself; ChainLens checks every target path as well.
    await assert.rejects(
      extractCodeArchive('t', evil, join(root, 'out2')),
      /task 't': the repository archive .*evil\.zip .*\.\.\/escaped\.txt/,
    );
    assert.equal(existsSync(join(root, 'escaped.txt')), false);

    const plain = join(root, 'plain.zip');
    zipWith(plain, { 'README.md': 'no repository here' });
    await assert.rejects(extractCodeArchive('t', plain, join(root, 'out3')), /holds no git repository/);
    const notZip = join(root, 'not.zip');
    execFileSync('sh', ['-c', `echo hello > "${notZip}"`]);
    await assert.rejects(extractCodeArchive('t', notZip, join(root, 'out4')), /is not a zip archive/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the base is the current code with the target's tests; the oracle is the target; the work tree is untouched", async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-sweci-commits-'));
  try {
    const repo = join(root, 'calckit');
    const commits = buildTaskRepo(repo);
    const git = new Git(repo);
    const headBefore = await git.head();
    const made = await buildTaskCommits(git, 't', commits.c0, commits.c4.slice(0, 10));
    assert.equal(made.targetSha, commits.c4);
    const show = (rev: string) => execFileSync('git', ['show', rev], { cwd: repo, encoding: 'utf8' });
    assert.equal(show(`${made.base}:tests/test_ops.py`), show(`${commits.c4}:tests/test_ops.py`));
    assert.equal(show(`${made.base}:src/calckit/ops.py`), show(`${commits.c0}:src/calckit/ops.py`));
    assert.equal(show(`${made.oracle}:src/calckit/ops.py`), show(`${commits.c4}:src/calckit/ops.py`));
    assert.equal(
      execFileSync('git', ['rev-parse', `${made.base}^`], { cwd: repo, encoding: 'utf8' }).trim(),
      commits.c0,
    );
    // Same inputs, same commit (fixed author and date): a task's base is the same everywhere.
    assert.equal((await buildTaskCommits(git, 't', commits.c0, commits.c4)).base, made.base);
    assert.equal(await git.head(), headBefore);
    assert.equal(await git.isDirty(), false);
    await assert.rejects(
      buildTaskCommits(git, 't', 'deadbeef', commits.c4),
      /task 't': the repository archive has no commit deadbeef \(current_sha\)/,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
