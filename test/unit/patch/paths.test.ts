import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePatch } from '../../../src/core/patch/parse';
import { isPathSafe, touchedPaths } from '../../../src/core/patch/paths';

test('touchedPaths lists old and new names of renames and copies once each', () => {
  const p = parsePatch(readFileSync(join(__dirname, '../../fixtures/patches/multi-file.diff'), 'utf8'));
  const paths = touchedPaths(p);
  for (const expected of ['old_name.py', 'new_name.py', 'src.txt', 'copy.txt', 'gone.py', 'added.py', 'tést ünï.py'])
    assert.ok(paths.includes(expected), expected);
  assert.equal(new Set(paths).size, paths.length);
});

test('isPathSafe accepts ordinary relative paths', () => {
  for (const p of [
    'a.py',
    'pkg/mod.py',
    'dir with space/x',
    'tést.py',
    '.github/workflows/ci.yml',
    '.gitignore',
    'a..b/c',
  ])
    assert.equal(isPathSafe(p), true, p);
});

test('isPathSafe refuses parent segments, absolute paths and .git contents', () => {
  for (const p of [
    '../x',
    'a/../../x',
    'a\\..\\x',
    '/etc/passwd',
    '\\\\server\\x',
    'C:/x',
    '.git/config',
    'sub/.git/hooks/pre-commit',
    '.GIT/HEAD',
    '',
    'a\0b',
  ]) {
    assert.equal(isPathSafe(p), false, JSON.stringify(p));
  }
});
