// Git.tryApply applies a patch in one git process, all or nothing: a patch whose second file does
// not apply leaves the first file unwritten too (no `apply --check` run first), and says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Git } from '../../../src/infra/git/git';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

const hunk = (file: string, from: string, to: string) =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-${from}\n+${to}\n`;

test('tryApply writes nothing when one file of the patch does not apply, and names it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-tryapply-'));
  try {
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    writeFileSync(join(dir, 'b.txt'), 'two\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');
    const repo = new Git(dir);
    const failing = hunk('a.txt', 'one', 'ONE') + hunk('b.txt', 'not what b holds', 'TWO');
    const why = await repo.tryApply(failing);
    assert.match(why ?? '', /b\.txt/);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'one\n', 'a.txt was written by a patch that failed');
    assert.equal(git(dir, 'status', '--porcelain'), '');
    assert.equal(await repo.tryApply(hunk('a.txt', 'one', 'ONE') + hunk('b.txt', 'two', 'TWO')), null);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8') + readFileSync(join(dir, 'b.txt'), 'utf8'), 'ONE\nTWO\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
