// The base store (src/infra/git/baseStore.ts) against real git: every work tree of one base
// borrows one base-only pack from the cache, so the second work tree of a base copies no history
// (it is made even once the source has lost its objects), and no work tree ever sees an object
// after the base: not the source's later commits, nor what another work tree of that base committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkTree } from '../../../src/infra/git/mirror';
import { baseStorePath } from '../../../src/infra/git/baseStore';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A source with two commits up to the base and one later commit holding a fix nobody may see. */
function source(root: string): { dir: string; base: string; history: string; later: string; laterBlob: string } {
  const dir = join(root, 'source');
  git(root, 'init', '-q', dir);
  writeFileSync(join(dir, 'a.py'), 'def f():\n    return 1\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  writeFileSync(join(dir, 'b.py'), 'def g():\n    return 2\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  const history = git(dir, 'rev-list', base);
  writeFileSync(join(dir, 'a.py'), 'def f():\n    return "the later fix"\n');
  git(dir, 'commit', '-q', '-am', 'later fix');
  git(dir, 'repack', '-q', '-a', '-d');
  return { dir, base, history, later: git(dir, 'rev-parse', 'HEAD'), laterBlob: git(dir, 'rev-parse', 'HEAD:a.py') };
}

function assertBaseOnly(work: string, src: { history: string; later: string; laterBlob: string }, extra = ''): void {
  const ids = (text: string) => text.split('\n').filter(Boolean).sort();
  assert.deepEqual(ids(git(work, 'rev-list', '--all')), ids(`${extra}\n${src.history}`));
  assert.equal(git(work, 'fsck', '--unreachable', '--no-reflogs'), '', `${work}: no unreachable object`);
  assert.throws(() => git(work, 'cat-file', '-e', src.later), 'the later commit is not there');
  assert.throws(() => git(work, 'cat-file', '-e', src.laterBlob), 'the later fix is not there');
}

test("every work tree of a base borrows the cache's base-only store: the second copies nothing, and none sees a later object", async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-base-store-'));
  const cache = join(root, 'cache');
  const saved = process.env.CHAINLENS_CACHE;
  process.env.CHAINLENS_CACHE = cache;
  try {
    const src = source(root);
    const first = join(root, 'first');
    await createWorkTree(src.dir, first, src.base);
    assertBaseOnly(first, src);

    // A run in the first work tree commits objects of its own; they must stay its own.
    git(first, 'checkout', '-q', '-b', 'run', 'refs/chainlens/base');
    writeFileSync(join(first, 'a.py'), 'def f():\n    return "a solver\'s commit"\n');
    git(first, 'commit', '-q', '-am', 'step 1');
    const runCommit = git(first, 'rev-parse', 'HEAD');
    assertBaseOnly(first, src, runCommit);

    // The source loses every object: a second work tree that still copied history would fail.
    const store = baseStorePath(cache, src.dir, src.base);
    const baseObjects = git(src.dir, 'rev-list', '--objects', src.base)
      .split('\n')
      .map((l) => l.slice(0, 40))
      .sort();
    for (const name of readdirSync(join(src.dir, '.git', 'objects', 'pack')))
      rmSync(join(src.dir, '.git', 'objects', 'pack', name), { force: true });
    const second = join(root, 'second');
    await createWorkTree(src.dir, second, src.base, src.base);
    assertBaseOnly(second, src);
    assert.throws(() => git(second, 'cat-file', '-e', runCommit), "the first work tree's commit is not there");

    // Borrowed, not copied: both work trees' packs are the store's own file (same file system here).
    const storePack = readdirSync(store).find((n) => n.endsWith('.pack'))!;
    for (const work of [first, second])
      assert.equal(
        statSync(join(work, '.git', 'objects', 'pack', storePack)).ino,
        statSync(join(store, storePack)).ino,
      );
    // The store holds exactly the base's objects: one pack, nothing later, nothing committed since.
    const idx = readdirSync(store).filter((n) => n.endsWith('.idx'));
    assert.equal(idx.length, 1);
    const stored = git(root, 'verify-pack', '-v', join(store, idx[0]))
      .split('\n')
      .filter((l) => /^[0-9a-f]{40} /.test(l))
      .map((l) => l.slice(0, 40))
      .sort();
    assert.deepEqual(stored, baseObjects);
  } finally {
    if (saved === undefined) delete process.env.CHAINLENS_CACHE;
    else process.env.CHAINLENS_CACHE = saved;
    rmSync(root, { recursive: true, force: true });
  }
});

test('a cache that cannot be written costs the store, not the work tree: its history is copied from the source', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-base-store-'));
  const saved = process.env.CHAINLENS_CACHE;
  // A file where the cache's folder would be: nothing can be made under it.
  writeFileSync(join(root, 'cache'), '');
  process.env.CHAINLENS_CACHE = join(root, 'cache');
  try {
    const src = source(root);
    const work = join(root, 'work');
    await createWorkTree(src.dir, work, src.base);
    assertBaseOnly(work, src);
  } finally {
    if (saved === undefined) delete process.env.CHAINLENS_CACHE;
    else process.env.CHAINLENS_CACHE = saved;
    rmSync(root, { recursive: true, force: true });
  }
});
