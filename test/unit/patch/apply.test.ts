import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePatch } from '../../../src/core/patch/parse';
import { applyFilePatch, HunkMismatchError } from '../../../src/core/patch/apply';
import { changedLines, mapOldLineToNew } from '../../../src/core/patch/lines';

const dir = join(__dirname, '../../fixtures/patches');
const read = (p: string) => readFileSync(join(dir, p), 'utf8');

for (const [diff, pre, post] of [
  ['multi-file.diff', 'mod.py', 'mod.py'],
  ['crlf.diff', 'win.txt', 'win.txt'],
  ['no-newline.diff', 'nonl.txt', 'nonl.txt'],
  ['tricky-markers.diff', 'tricky.txt', 'tricky.txt'],
  ['rename-with-edit.diff', 'old_name.py', 'new_name.py'],
]) {
  test(`post-image of ${post} rebuilt from ${diff} is byte-identical to git's`, () => {
    const file = parsePatch(read(diff)).files.find((f) => f.oldPath === pre)!;
    assert.equal(applyFilePatch(read(`images/pre/${pre}`), file), read(`images/post/${post}`));
  });
}

test('added file rebuilds from an empty pre-image; deleted file becomes empty', () => {
  const added = parsePatch(read('added-file.diff')).files[0];
  assert.equal(applyFilePatch('', added), 'def h():\n    pass\n');
  const deleted = parsePatch(read('deleted-file.diff')).files[0];
  assert.equal(applyFilePatch('keep\n', deleted), '');
});

test('a hunk shifted by lines added above it is found nearby, like git apply', () => {
  const file = parsePatch(read('multi-file.diff')).files.find((f) => f.oldPath === 'mod.py')!;
  const shifted = '# header\n# more\n' + read('images/pre/mod.py');
  assert.equal(applyFilePatch(shifted, file), '# header\n# more\n' + read('images/post/mod.py'));
});

test('a pre-image that does not match is an error naming file and hunk', () => {
  const file = parsePatch(read('multi-file.diff')).files.find((f) => f.oldPath === 'mod.py')!;
  assert.throws(
    () => applyFilePatch('something else\n', file),
    (e: unknown) => {
      assert.ok(e instanceof HunkMismatchError);
      assert.match(e.message, /^mod\.py: hunk @@ -1,4 \+1,6 @@ .*does not apply/);
      return true;
    },
  );
});

test('changedLines anchors each change on both sides; mapOldLineToNew shifts lines below hunks', () => {
  const file = parsePatch('--- a/x\n+++ b/x\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n+B2\n c\n@@ -9,0 +11,2 @@\n+tail1\n+tail2\n')
    .files[0];
  assert.deepEqual(
    changedLines(file).map((c) => [c.kind, c.text, c.oldLine, c.newLine]),
    [
      ['del', 'b', 2, 2],
      ['add', 'B', 2, 2],
      ['add', 'B2', 2, 3],
      ['add', 'tail1', 10, 11],
      ['add', 'tail2', 10, 12],
    ],
  );
  assert.equal(mapOldLineToNew(file, 1), 1);
  assert.equal(mapOldLineToNew(file, 2), 2);
  assert.equal(mapOldLineToNew(file, 3), 4);
  assert.equal(mapOldLineToNew(file, 9), 10);
  assert.equal(mapOldLineToNew(file, 10), 13);
  assert.equal(mapOldLineToNew(undefined, 7), 7);
});
