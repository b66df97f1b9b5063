// Refs written as files into a repository `git init` just made (src/infra/git/refFiles.ts) must be
// what `git update-ref` leaves: the same ref files, no reflog; all of them move or none; and any
// repository where git could do more (reftable, packed refs, a config asking for reflogs) is left
// to git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { refsAreFiles, writeRefFiles } from '../../../src/infra/git/refFiles';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** A repository made by `git init` holding one commit, with no ref pointing at it. */
function fresh(root: string, name: string): { dir: string; gitDir: string; commit: string } {
  const dir = join(root, name);
  git(root, 'init', '-q', dir);
  const tree = git(dir, 'write-tree');
  const commit = git(dir, 'commit-tree', tree, '-m', 'c');
  return { dir, gitDir: join(dir, '.git'), commit };
}

/** The files under `dir` (none when it does not exist). */
function files(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

const REFS = ['refs/chainlens/base', 'refs/chainlens/r1/oracle/step-2', 'refs/chainlens/r1/step-2/start'];

test('ref files are what git update-ref writes: the same refs and files, no reflog', () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-ref-files-'));
  try {
    const byGit = fresh(root, 'git');
    const byFiles = fresh(root, 'files');
    assert.equal(byGit.commit, byFiles.commit);
    for (const ref of REFS) git(byGit.dir, 'update-ref', ref, byGit.commit);
    assert.ok(refsAreFiles(byFiles.gitDir));
    writeRefFiles(
      byFiles.gitDir,
      REFS.map((ref) => ({ ref, sha: byFiles.commit })),
    );
    const refs = (dir: string) => git(dir, 'for-each-ref', '--format=%(refname) %(objectname)');
    assert.equal(refs(byFiles.dir), refs(byGit.dir));
    assert.deepEqual(files(join(byFiles.gitDir, 'refs')), files(join(byGit.gitDir, 'refs')));
    assert.deepEqual(files(join(byFiles.gitDir, 'logs')), files(join(byGit.gitDir, 'logs')));
    assert.equal(git(byFiles.dir, 'fsck', '--no-dangling'), '');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a ref whose lock another writer holds moves nothing, as a git ref transaction', () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-ref-files-'));
  try {
    const { dir, gitDir, commit } = fresh(root, 'repo');
    writeRefFiles(gitDir, [{ ref: REFS[1], sha: commit }]);
    writeFileSync(join(gitDir, `${REFS[1]}.lock`), '');
    assert.throws(() =>
      writeRefFiles(
        gitDir,
        REFS.map((ref) => ({ ref, sha: commit })),
      ),
    );
    assert.equal(git(dir, 'for-each-ref', '--format=%(refname)'), REFS[1]);
    assert.ok(!existsSync(join(gitDir, `${REFS[0]}.lock`)), 'the locks it took are released');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('refs are left to git where git could write more than the file: packed refs, reflogs asked for, -c options', () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-ref-files-'));
  try {
    const packed = fresh(root, 'packed');
    git(packed.dir, 'update-ref', 'refs/chainlens/x', packed.commit);
    git(packed.dir, 'pack-refs', '--all');
    assert.equal(refsAreFiles(packed.gitDir), false);

    const logged = fresh(root, 'logged');
    appendFileSync(join(logged.gitDir, 'config'), '[core]\n\tlogallrefupdates = always\n');
    assert.equal(refsAreFiles(logged.gitDir), false);

    const plain = fresh(root, 'plain');
    assert.equal(refsAreFiles(plain.gitDir), true);
    const saved = process.env.GIT_CONFIG_PARAMETERS;
    process.env.GIT_CONFIG_PARAMETERS = "'core.logallrefupdates'='always'";
    try {
      assert.equal(refsAreFiles(plain.gitDir), false);
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_PARAMETERS;
      else process.env.GIT_CONFIG_PARAMETERS = saved;
    }
    assert.equal(refsAreFiles(join(root, 'no-such-repository', '.git')), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
