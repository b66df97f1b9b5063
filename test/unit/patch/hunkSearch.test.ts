// Where applyFilePatch puts a hunk whose context appears more than once, on a pre-image that is
// not exactly the patch's base (lines added above or between hunks): like GNU patch, a hunk is
// searched from where its header says plus the offset the previous hunk was found at, and never
// before the end of the previous hunk. The expected post-images are GNU patch 2.7.6's output on the
// same inputs (`patch --batch -p1`, which the evaluation also falls back to). Mutations checked
// (applied by hand / by `npm run mutate`, tests seen failing, reverted): the carried offset dropped
// or negated, the search allowed before the previous hunk's end, and the edge cases below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFilePatch, applyFilePatchWithEdits, HunkMismatchError } from '../../../src/core/patch/apply';
import { parsePatch } from '../../../src/core/patch/parse';

const file = (patch: string) => parsePatch(patch).files[0];
const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');

test('the offset a hunk was found at carries to the next hunk, so a repeated context picks the right copy', () => {
  // Base lines 8-14 read k v k v k v k; hunk 2 changes the v at line 11. Two lines were added on
  // top: hunk 1 is found 2 lines down, and hunk 2 must be too. Without that offset, or with a
  // wrong one, another copy of "k v k" matches first.
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@ z\n a\n-b\n+B\n c\n@@ -10,3 +10,3 @@ v\n k\n-v\n+V\n k\n';
  const base = ['z', 'a', 'b', 'c', 'f1', 'f2', 'f3', 'k', 'v', 'k', 'v', 'k', 'v', 'k'];
  // GNU patch: "Hunk #1 succeeded at 4 (offset 2 lines). Hunk #2 succeeded at 12 (offset 2 lines)."
  assert.equal(
    applyFilePatch(lines('top1', 'top2', ...base), file(patch)),
    lines('top1', 'top2', 'z', 'a', 'B', 'c', 'f1', 'f2', 'f3', 'k', 'v', 'k', 'V', 'k', 'v', 'k'),
  );
});

test('a hunk is never matched before the end of the previous one, even when that copy is nearer', () => {
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n k\n-v\n+W\n k\n@@ -5,3 +5,3 @@ m\n k\n-v\n+V\n k\n';
  const pre = lines('k', 'v', 'k', 'm', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'k', 'v', 'k');
  // GNU patch: "Hunk #2 succeeded at 11 (offset 6 lines)."
  assert.equal(
    applyFilePatch(pre, file(patch)),
    lines('k', 'W', 'k', 'm', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'k', 'V', 'k'),
  );
});

test('a hunk past the end of a short file is a HunkMismatchError saying how long the file is', () => {
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -3,2 +3,2 @@\n c\n-d\n+D\n';
  assert.throws(
    () => applyFilePatch('a\n', file(patch)),
    (e: unknown) =>
      e instanceof HunkMismatchError &&
      e.kind === 'input' &&
      e.name === 'HunkMismatchError' &&
      e.message === 'f.txt: hunk @@ -3,2 +3,2 @@ (patch line 3) does not apply: the file has only 1 lines',
  );
  assert.throws(() => applyFilePatch('a\nb\nx\ny\n', file(patch)), /does not apply: line 3 reads 'x'$/);
  // A long line is quoted by its first 60 characters.
  assert.throws(
    () => applyFilePatch(`a\nb\n${'x'.repeat(59)}yz\n`, file(patch)),
    new RegExp(`does not apply: line 3 reads '${'x'.repeat(59)}y'$`),
  );
});

test('a file whose first line is blank, and one with a blank CRLF line, keep every line', () => {
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n \n-b\n+B\n c\n';
  assert.equal(applyFilePatch('\nb\nc\n', file(patch)), '\nB\nc\n');
  const crlf = '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n \r\n-b\r\n+B\r\n c\r\n';
  assert.equal(applyFilePatch('\r\nb\r\nc\r\n', file(crlf)), '\r\nB\r\nc\r\n');
  // LF lines keep their last character (a CR test on every line would eat it).
  assert.equal(applyFilePatch('\nb\nc\nxyz', file(patch)), '\nB\nc\nxyz');
});

test('a deleted file is one edit removing every line; a deleted empty file is none', () => {
  const deleted = file(
    'diff --git a/f.txt b/f.txt\ndeleted file mode 100644\n--- a/f.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n',
  );
  assert.deepEqual(applyFilePatchWithEdits('a\nb\n', deleted), {
    text: '',
    edits: [{ oldStart: 0, oldCount: 2, newStart: 0, newCount: 0 }],
  });
  assert.deepEqual(applyFilePatchWithEdits('', deleted), { text: '', edits: [] });
});

test('a binary change has no text post-image: an input error naming the file', () => {
  const binary = file(
    'diff --git a/img.png b/img.png\nindex 1111111..2222222 100644\nBinary files a/img.png and b/img.png differ\n',
  );
  assert.equal(binary.binary, true);
  assert.throws(
    () => applyFilePatch('x', binary),
    (e: unknown) =>
      e instanceof Error &&
      e.message === 'img.png: binary change, no text post-image' &&
      (e as { kind?: string }).kind === 'input',
  );
});

test('a hunk whose lines moved up (lines removed above it) is found below where its header says', () => {
  // Mutations checked: the downward search testing stated + d, or placing the hunk there.
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -6,3 +6,3 @@ c\n k\n-v\n+V\n k\n';
  // GNU patch: "Hunk #1 succeeded at 4 (offset -2 lines)."
  assert.equal(
    applyFilePatch(lines('a', 'b', 'c', 'k', 'v', 'k', 'z'), file(patch)),
    lines('a', 'b', 'c', 'k', 'V', 'k', 'z'),
  );
});
