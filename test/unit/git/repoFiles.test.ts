// The repository facts status reads from .git itself answer only where git would answer the same;
// every other layout returns "ask git" (null / false).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certainlyNoStash, headFromFiles, workTreeAtTop } from '../../../src/infra/git/repoFiles';
import { git } from '../../helpers/tinyChain';

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-repofiles-'));
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'a');
  return dir;
}

test('a plain repository: the paths git prints, symlinks resolved', () => {
  const dir = repo();
  try {
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    const [top, gitDir] = git(link, 'rev-parse', '--show-toplevel', '--absolute-git-dir').trim().split('\n');
    assert.deepEqual(workTreeAtTop(link), { top, gitDir });
    assert.equal(top, realpathSync(dir));
    rmSync(link);
    assert.equal(workTreeAtTop(join(dir, 'sub')), null, 'not the top: git searches upwards');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('config, layouts and environment that make it ask git', () => {
  const dir = repo();
  try {
    const config = join(dir, '.git', 'config');
    const plain = readFileSync(config, 'utf8');
    assert.match(plain, /bare = false/);
    for (const extra of [
      '\tbare = true\n',
      '\tbare\n',
      '\tworktree = /elsewhere\n',
      '[include]\n\tpath = x\n',
      '[extensions]\n\tworktreeConfig = true\n',
    ]) {
      writeFileSync(config, `${plain}${extra.startsWith('[') ? '' : '[core]\n'}${extra}`);
      assert.equal(workTreeAtTop(dir), null, extra);
    }
    writeFileSync(config, plain);
    assert.ok(workTreeAtTop(dir));
    process.env.GIT_CONFIG_COUNT = '1';
    try {
      assert.equal(workTreeAtTop(dir), null);
    } finally {
      delete process.env.GIT_CONFIG_COUNT;
    }
    writeFileSync(join(dir, '.git', 'HEAD'), 'garbage\n');
    assert.equal(workTreeAtTop(dir), null, 'git would not take this .git as a repository');
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const linked = `${dir}-linked`;
    git(dir, 'worktree', 'add', '-q', '--detach', linked);
    assert.equal(workTreeAtTop(linked), null, 'a .git file');
    const [name] = readdirSync(join(dir, '.git', 'worktrees'));
    assert.equal(certainlyNoStash(join(dir, '.git', 'worktrees', name)), false, "a linked worktree's git dir");
    git(dir, 'worktree', 'remove', '--force', linked);
    const empty = mkdtempSync(join(tmpdir(), 'chainlens-repofiles-'));
    mkdirSync(join(empty, '.git'));
    assert.equal(workTreeAtTop(empty), null, 'an empty .git directory: git looks further up');
    rmSync(empty, { recursive: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no stash: only when no loose ref, reflog or packed ref names refs/stash', () => {
  const dir = repo();
  try {
    const gitDir = join(dir, '.git');
    assert.equal(certainlyNoStash(gitDir), true);
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    git(dir, 'stash', 'push', '-q');
    assert.equal(certainlyNoStash(gitDir), false);
    git(dir, 'pack-refs', '--all');
    rmSync(join(gitDir, 'logs', 'refs', 'stash'));
    assert.equal(certainlyNoStash(gitDir), false, 'packed');
    git(dir, 'update-ref', '-d', 'refs/stash');
    assert.equal(certainlyNoStash(gitDir), true);
    assert.equal(git(dir, 'stash', 'list'), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('HEAD from the files: what `git rev-parse HEAD --symbolic-full-name HEAD` says, or null', () => {
  const dir = repo();
  try {
    const gitDir = join(dir, '.git');
    const fromGit = () => {
      const [commit, name] = git(dir, 'rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD').trim().split('\n');
      return { commit, branch: name.startsWith('refs/heads/') ? name : null };
    };
    assert.deepEqual(headFromFiles(gitDir), fromGit(), 'a loose branch ref');
    git(dir, 'pack-refs', '--all');
    assert.deepEqual(headFromFiles(gitDir), fromGit(), 'a packed branch ref');
    git(dir, 'checkout', '-q', '--detach');
    assert.deepEqual(headFromFiles(gitDir), fromGit(), 'a detached HEAD');
    git(dir, 'checkout', '-q', '--orphan', 'unborn');
    assert.equal(headFromFiles(gitDir), null, 'an unborn branch: git is asked');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/alias');
    assert.equal(headFromFiles(gitDir), null, 'a branch that is itself a symbolic ref: git is asked');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
