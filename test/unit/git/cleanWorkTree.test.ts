// certainlyClean may only say "clean" where `git status --porcelain --untracked-files=all` prints
// nothing; everywhere else it must say "ask git". Each case is checked against git itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certainlyClean } from '../../../src/infra/git/cleanWorkTree';
import { git, writeFiles } from '../../helpers/tinyChain';

const gitSaysClean = (dir: string) =>
  git(dir, '--no-optional-locks', 'status', '--porcelain', '--untracked-files=all') === '';

/** certainlyClean's answer, after checking it never contradicts git. */
function check(dir: string): boolean {
  const fast = certainlyClean(dir, join(dir, '.git'));
  if (fast) assert.equal(gitSaysClean(dir), true, 'said clean where git sees changes');
  return fast;
}

function clone(): { dir: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-clean-'));
  const up = join(root, 'up');
  mkdirSync(up);
  git(up, 'init', '-q', '-b', 'main');
  writeFiles(up, { 'a.txt': 'a\n', 'src/b.py': 'b = 1\n', 'src/deep/c.py': 'c = 2\n', 'run.sh': '#!/bin/sh\n' });
  chmodSync(join(up, 'run.sh'), 0o755);
  symlinkSync('a.txt', join(up, 'link'));
  git(up, 'add', '-A');
  git(up, 'commit', '-q', '-m', 'base');
  git(up, 'gc', '-q');
  const dir = join(root, 'work');
  git(root, 'clone', '-q', up, dir);
  return { dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

test('a fresh clone (commit in a pack, files racily clean) is certainly clean; a refreshed index too', () => {
  const { dir, cleanup } = clone();
  try {
    assert.equal(check(dir), true);
    git(dir, 'status', '--porcelain');
    assert.equal(check(dir), true);
    // Every entry racy: the content is compared, as git does.
    utimesSync(join(dir, '.git', 'index'), new Date(0), new Date(0));
    assert.equal(check(dir), false, 'a racy symlink is left to git');
    git(dir, 'rm', '-q', 'link');
    git(dir, 'commit', '-q', '-m', 'no link');
    utimesSync(join(dir, '.git', 'index'), new Date(0), new Date(0));
    assert.equal(check(dir), true, 'racy regular files hashed as git hashes them');
    writeFileSync(join(dir, '.git', 'info', 'attributes'), '* text=auto\n');
    assert.equal(check(dir), false, 'attributes could convert what git hashes');
  } finally {
    cleanup();
  }
});

test('every kind of change is left to git', () => {
  const { dir, cleanup } = clone();
  try {
    const cases: [string, () => void, () => void][] = [
      [
        'untracked',
        () => writeFileSync(join(dir, 'src', 'deep', 'new.py'), ''),
        () => rmSync(join(dir, 'src', 'deep', 'new.py')),
      ],
      ['modified', () => writeFileSync(join(dir, 'a.txt'), 'A\n'), () => git(dir, 'checkout', '-q', '--', 'a.txt')],
      ['deleted', () => rmSync(join(dir, 'src', 'b.py')), () => git(dir, 'checkout', '-q', '--', 'src/b.py')],
      ['mode', () => chmodSync(join(dir, 'a.txt'), 0o755), () => chmodSync(join(dir, 'a.txt'), 0o644)],
      [
        'staged',
        () => {
          writeFileSync(join(dir, 'x'), 'x');
          git(dir, 'add', 'x');
        },
        () => git(dir, 'rm', '-q', '-f', 'x'),
      ],
      [
        'ignored',
        () => {
          writeFileSync(join(dir, '.git', 'info', 'exclude'), '*.log\n');
          writeFileSync(join(dir, 'y.log'), '');
        },
        () => rmSync(join(dir, 'y.log')),
      ],
      [
        'nested repository',
        () => {
          mkdirSync(join(dir, 'nested'));
          git(join(dir, 'nested'), 'init', '-q');
        },
        () => rmSync(join(dir, 'nested'), { recursive: true }),
      ],
      ['symlink to a tracked dir', () => symlinkSync('src', join(dir, 'src2')), () => rmSync(join(dir, 'src2'))],
      [
        'detached at another commit',
        () => {
          writeFileSync(join(dir, 'a.txt'), 'v2\n');
          git(dir, 'commit', '-q', '-am', 'v2');
          git(dir, 'checkout', '-q', '--detach', 'HEAD~1');
          git(dir, 'reset', '-q', '--soft', 'main');
        },
        () => git(dir, 'checkout', '-q', '-f', 'main'),
      ],
    ];
    for (const [name, change, undo] of cases) {
      change();
      assert.equal(check(dir), false, name);
      undo();
      git(dir, 'status', '--porcelain');
      check(dir);
    }
    assert.equal(check(dir), true, 'clean again at the end');
  } finally {
    cleanup();
  }
});
