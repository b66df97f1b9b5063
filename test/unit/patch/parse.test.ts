import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePatch, PatchParseError } from '../../../src/core/patch/parse';
import { filePath } from '../../../src/core/patch/types';

const dir = join(__dirname, '../../fixtures/patches');
const fixture = (name: string) => parsePatch(readFileSync(join(dir, name), 'utf8'), name);
const only = (name: string) => {
  const p = fixture(name);
  assert.equal(p.files.length, 1, `${name} holds one file`);
  return p.files[0];
};

test('added file: /dev/null old side, new path, one hunk of added lines', () => {
  const f = only('added-file.diff');
  assert.equal(f.status, 'added');
  assert.equal(f.oldPath, null);
  assert.equal(f.newPath, 'added.py');
  assert.equal(f.newMode, '100644');
  assert.deepEqual(
    f.hunks[0].lines.map((l) => [l.kind, l.text, l.newLine]),
    [
      ['add', 'def h():', 1],
      ['add', '    pass', 2],
    ],
  );
});

test('deleted file: no new path, removed lines numbered in the old file', () => {
  const f = only('deleted-file.diff');
  assert.equal(f.status, 'deleted');
  assert.equal(f.oldPath, 'gone.py');
  assert.equal(f.newPath, null);
  assert.deepEqual(
    f.hunks[0].lines.map((l) => [l.kind, l.text, l.oldLine]),
    [['del', 'keep', 1]],
  );
});

test('rename with an edit keeps both names, the similarity and the hunk', () => {
  const f = only('rename-with-edit.diff');
  assert.equal(f.status, 'renamed');
  assert.equal(f.oldPath, 'old_name.py');
  assert.equal(f.newPath, 'new_name.py');
  assert.equal(f.similarity, 96);
  const del = f.hunks[0].lines.find((l) => l.kind === 'del');
  assert.equal(del?.oldLine, 15);
  assert.equal(f.hunks[0].section, 'line 11 of a long file that will be renamed');
});

test('pure rename of names with spaces: no hunks, names from rename from/to', () => {
  const f = only('rename-pure.diff');
  assert.equal(f.status, 'renamed');
  assert.equal(f.oldPath, 'with space.py');
  assert.equal(f.newPath, 'moved dir name.py');
  assert.equal(f.similarity, 100);
  assert.equal(f.hunks.length, 0);
});

test('copy keeps the source as old path', () => {
  const f = only('copy.diff');
  assert.equal(f.status, 'copied');
  assert.deepEqual([f.oldPath, f.newPath], ['src.txt', 'copy.txt']);
  assert.equal(f.hunks[0].lines.at(-1)?.newLine, 21);
});

test('mode change without content change', () => {
  const f = only('mode-change.diff');
  assert.equal(f.status, 'mode-change');
  assert.deepEqual([f.oldMode, f.newMode, f.oldPath, f.newPath], ['100644', '100755', 'run.sh', 'run.sh']);
});

test('binary changes, summary line and GIT binary patch, have no hunks', () => {
  for (const name of ['binary.diff', 'binary-literal.diff']) {
    const f = only(name);
    assert.equal(f.binary, true, name);
    assert.equal(f.status, 'modified', name);
    assert.equal(f.newPath, 'blob.bin', name);
    assert.equal(f.hunks.length, 0, name);
  }
});

test('empty new file: diff --git without hunks still names the file', () => {
  const f = only('empty-new-file.diff');
  assert.deepEqual([f.status, f.oldPath, f.newPath, f.hunks.length], ['added', null, 'empty.txt', 0]);
});

test('CRLF content: text without the CR, crlf flag set', () => {
  const f = only('crlf.diff');
  const lines = f.hunks[0].lines;
  assert.deepEqual(
    lines.map((l) => l.text),
    ['a', 'b', 'B', 'c', 'd'],
  );
  assert.ok(lines.every((l) => l.crlf));
});

test('no newline at end of file marks the last line of each side', () => {
  const f = only('no-newline.diff');
  const marked = f.hunks[0].lines.filter((l) => l.noNewlineAtEnd).map((l) => [l.kind, l.text]);
  assert.deepEqual(marked, [
    ['del', 'last'],
    ['add', 'last line'],
  ]);
});

test('quoted paths with unicode octal escapes and a space decode to the real name', () => {
  assert.equal(filePath(only('quoted-unicode.diff')), 'tést ünï.py');
  assert.equal(filePath(only('unquoted-unicode.diff')), 'tést ünï.py');
  assert.equal(filePath(only('space-in-path.diff')), 'with space.py');
});

test('lines starting with --- or ++ inside a hunk are content, not headers', () => {
  const f = only('tricky-markers.diff');
  assert.deepEqual(
    f.hunks[0].lines.map((l) => [l.kind, l.text]),
    [
      ['del', '-- sql comment'],
      ['add', '-- sql comment changed'],
      ['context', '++ counter'],
      ['context', 'plain'],
      ['add', '--- not a header'],
    ],
  );
});

test('multi-file patch: every section, in order', () => {
  const p = fixture('multi-file.diff');
  assert.deepEqual(
    p.files.map((f) => `${f.status}:${filePath(f)}`),
    [
      'added:added.py',
      'modified:blob.bin',
      'copied:copy.txt',
      'added:empty.txt',
      'deleted:gone.py',
      'modified:mod.py',
      'renamed:new_name.py',
      'modified:nonl.txt',
      'mode-change:run.sh',
      'modified:tricky.txt',
      'modified:tést ünï.py',
      'modified:win.txt',
      'modified:with space.py',
    ],
  );
});

test('format-patch mail: message and signature around the diff are skipped', () => {
  const p = fixture('format-patch.eml');
  assert.deepEqual(p.files.map(filePath), ['mod.py', 'nonl.txt']);
  assert.equal(p.files[1].hunks[0].lines.length, 3);
});

test('plain diff -u: timestamps dropped, the new name is the file', () => {
  const f = only('plain-diff-u.diff');
  assert.deepEqual([f.status, f.oldPath, f.newPath], ['modified', 'mod.py', 'mod.py']);
  assert.equal(f.hunks[0].lines.filter((l) => l.kind === 'add').length, 2);
});

test('hunk header without counts means one line', () => {
  const f = parsePatch('--- a/x\n+++ b/x\n@@ -3 +3 @@\n-old\n+new\n').files[0];
  assert.deepEqual([f.hunks[0].oldLines, f.hunks[0].newLines], [1, 1]);
});

test('a patch saved with CRLF everywhere still parses its headers', () => {
  const text = readFileSync(join(dir, 'rename-with-edit.diff'), 'utf8').replace(/\n/g, '\r\n');
  const f = parsePatch(text).files[0];
  assert.deepEqual([f.status, f.oldPath, f.newPath, f.similarity], ['renamed', 'old_name.py', 'new_name.py', 96]);
});

test('truncated hunk: error names the source and the hunk header line', () => {
  const text = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n';
  assert.throws(
    () => parsePatch(text, 'step.diff'),
    (e: unknown) => {
      assert.ok(e instanceof PatchParseError);
      assert.equal(e.line, 4);
      assert.match(e.message, /^step\.diff: patch line 4: hunk ends early/);
      return true;
    },
  );
});

test('garbage inside a hunk: error names the offending line', () => {
  const text = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n*b\n';
  assert.throws(() => parsePatch(text, 'p.diff'), /p\.diff: patch line 6: unexpected line inside a hunk/);
});

test('empty text is an empty patch', () => {
  assert.deepEqual(parsePatch('').files, []);
});
