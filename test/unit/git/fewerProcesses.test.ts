// The batched git operations a checkout uses (src/infra/git/git.ts) against real git: a layer's
// patches applied in one `git apply` must give the tree that applying them one by one gives, also
// when two of them touch the same file (git refuses that combined, so they are applied in turn);
// a patch that does not apply is still named; several refs move in one transaction or not at all;
// the pack-objects | index-pack copy of a source gives the base's history and nothing later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Git } from '../../../src/infra/git/git';
import { UserError } from '../../../src/core/util/errors';
import { createWorkTree } from '../../../src/infra/git/mirror';
import { GitCommandError, runGitPipe } from '../../../src/infra/git/exec';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** A repository with a.txt and b.txt committed; returns it and its commit. */
function repo(): { dir: string; base: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-git-batch-'));
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'b.txt'), 'alpha\nbeta\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return { dir, base: git(dir, 'rev-parse', 'HEAD') };
}

/** The diff that turns `from` (default: the committed files) into `to`; the repository is left as committed. */
function diffFor(dir: string, to: Record<string, string>, from: Record<string, string> = {}): string {
  for (const [name, text] of Object.entries(from)) writeFileSync(join(dir, name), text);
  git(dir, 'add', '-A');
  for (const [name, text] of Object.entries(to)) writeFileSync(join(dir, name), text);
  const patch = git(dir, 'diff') + '\n';
  git(dir, 'reset', '-q', '--hard');
  return patch;
}

test('a layer whose patches touch different files, and one whose patches touch the same file twice, give the sequential trees', async () => {
  const { dir, base } = repo();
  try {
    const p1 = diffFor(dir, { 'a.txt': 'one\nTWO\nthree\n' });
    const p2 = diffFor(dir, { 'b.txt': 'alpha\nBETA\n' });
    // p3 edits a.txt as p1 left it: git refuses p1 + p3 as one input, the one-by-one path must take over.
    const p3 = diffFor(dir, { 'a.txt': 'ONE\nTWO\nthree\n' }, { 'a.txt': 'one\nTWO\nthree\n' });
    const g = new Git(dir);
    const [first, second] = await g.commitLayersOnto(base, [
      {
        message: 'disjoint',
        patches: [
          { label: 'p1', text: p1 },
          { label: 'p2', text: p2 },
        ],
      },
      { message: 'on top', patches: [{ label: 'p3', text: p3 }] },
    ]);
    assert.equal(git(dir, 'show', `${first}:a.txt`), 'one\nTWO\nthree');
    assert.equal(git(dir, 'show', `${first}:b.txt`), 'alpha\nBETA');
    assert.equal(git(dir, 'show', `${second}:a.txt`), 'ONE\nTWO\nthree');
    assert.equal(git(dir, 'rev-parse', `${second}^`), first);

    const [same] = await g.commitLayersOnto(base, [
      {
        message: 'twice',
        patches: [
          { label: 'p1', text: p1 },
          { label: 'p3', text: p3 },
        ],
      },
    ]);
    assert.equal(git(dir, 'show', `${same}:a.txt`), 'ONE\nTWO\nthree');
    assert.equal(git(dir, 'status', '--porcelain'), '', 'the work tree and index are untouched');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the patch of a layer that does not apply is named, whichever of them it is', async () => {
  const { dir, base } = repo();
  try {
    const good = diffFor(dir, { 'a.txt': 'one\nTWO\nthree\n' });
    const bad = diffFor(dir, { 'b.txt': 'alpha\nBETA\n' }).replace('-beta', '-gamma');
    await assert.rejects(
      new Git(dir).commitLayersOnto(base, [
        {
          message: 'x',
          patches: [
            { label: 'the good one', text: good },
            { label: 'the broken one', text: bad },
          ],
        },
      ]),
      (e: unknown) => e instanceof UserError && /^the broken one does not apply/.test(e.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('updateRefs moves every ref in one transaction, or none when one of them cannot move', async () => {
  const { dir, base } = repo();
  try {
    const g = new Git(dir);
    await g.updateRefs([
      { ref: 'refs/chainlens/r/one', sha: base },
      { ref: 'refs/chainlens/r/two', sha: base },
    ]);
    assert.equal(await g.readRef('refs/chainlens/r/two'), base);
    await assert.rejects(
      g.updateRefs([
        { ref: 'refs/chainlens/r/three', sha: base },
        { ref: 'refs/chainlens/r/four', sha: 'f'.repeat(40) }, // no such object
      ]),
    );
    assert.equal(await g.readRef('refs/chainlens/r/three'), null, 'the transaction moved nothing');
    await assert.rejects(
      g.updateRefs([
        { ref: 'refs/chainlens/x', sha: base },
        { ref: 'refs/heads/main', sha: base }, // not a ChainLens ref: refused before git runs
      ]),
      /invalid ChainLens ref/,
    );
    assert.equal(await g.readRef('refs/chainlens/x'), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a commit id is resolved once; a ref is asked again because it can move', async () => {
  const { dir, base } = repo();
  try {
    const g = new Git(dir);
    assert.equal(await g.resolveCommit('HEAD'), base);
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    git(dir, 'commit', '-q', '-am', 'next');
    const next = git(dir, 'rev-parse', 'HEAD');
    assert.equal(await g.resolveCommit('HEAD'), next);
    assert.equal(await g.resolveCommit(base), base);
    assert.equal(await g.resolveCommit('0'.repeat(40)), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a work tree made from a source holds the base commit and its history, none of the later commits, and a failed copy says which git command failed', async () => {
  const { dir, base } = repo();
  const target = mkdtempSync(join(tmpdir(), 'chainlens-git-copy-'));
  try {
    writeFileSync(join(dir, 'a.txt'), 'later\n');
    git(dir, 'commit', '-q', '-am', 'later');
    const later = git(dir, 'rev-parse', 'HEAD');
    const work = join(target, 'work');
    await createWorkTree(dir, work, base);
    assert.equal(git(work, 'rev-parse', 'refs/chainlens/base'), base);
    // Written as a loose ref without git: git reads it as its own, and no lock is left behind.
    assert.equal(git(work, 'for-each-ref', '--format=%(refname) %(objectname)'), `refs/chainlens/base ${base}`);
    assert.equal(existsSync(join(work, '.git', 'refs', 'chainlens', 'base.lock')), false);
    git(work, 'fsck', '--no-dangling');
    assert.equal(git(work, 'show', `${base}:a.txt`), 'one\ntwo\nthree');
    assert.throws(() => git(work, 'cat-file', '-e', later), 'the later commit is not there');
    assert.equal(git(work, 'rev-list', '--all'), base);

    await assert.rejects(
      runGitPipe(
        { args: ['pack-objects', '--revs', '--stdout', '--quiet'], cwd: dir, input: `${'e'.repeat(40)}\n` },
        { args: ['index-pack', '--stdin'], cwd: work },
      ),
      (e: unknown) => e instanceof GitCommandError && e.args[0] === 'pack-objects',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(target, { recursive: true, force: true });
  }
});
