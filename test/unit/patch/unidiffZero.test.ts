// Hunks without context (`git diff -U0`, what some agents and tools emit). A pure insertion
// `@@ -N,0 +M @@` inserts AFTER old line N (N = 0: at the top), unlike every other hunk, whose
// old start is the first line it covers. Each post-image here is checked against real
// `git apply --unidiff-zero` on the same patch and pre-image.
// Mutation checked (applied by hand, tests seen failing, reverted): in applyFilePatchWithEdits,
// `hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1` -> `hunk.oldStart - 1` (inserted one
// line early).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyFilePatch, applyFilePatchWithEdits } from '../../../src/core/patch/apply';
import { changedLines, mapOldLineToNew } from '../../../src/core/patch/lines';
import { parsePatch } from '../../../src/core/patch/parse';
import { seededRandom as rng } from '../../../src/core/study/random';

const dir = mkdtempSync(join(tmpdir(), 'chainlens-u0-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** What real git makes of `pre` with `patch` applied by `git apply --unidiff-zero`. */
function gitApplyU0(pre: string, patch: string): string {
  writeFileSync(join(dir, 'f.txt'), pre);
  writeFileSync(join(dir, 'p.diff'), patch);
  execFileSync('git', ['apply', '--unidiff-zero', 'p.diff'], { cwd: dir, stdio: 'pipe' });
  return readFileSync(join(dir, 'f.txt'), 'utf8');
}

/** `git diff -U0` of two texts, as a patch of f.txt. */
function gitDiffU0(pre: string, post: string): string {
  writeFileSync(join(dir, 'old.txt'), pre);
  writeFileSync(join(dir, 'new.txt'), post);
  let out = '';
  try {
    execFileSync('git', ['diff', '--no-index', '--no-color', '-U0', '--', 'old.txt', 'new.txt'], {
      cwd: dir,
      stdio: 'pipe',
    });
  } catch (e) {
    out = String((e as { stdout: Buffer }).stdout); // exit code 1: the texts differ
  }
  const body = out.slice(out.indexOf('\n@@') + 1);
  return `--- a/f.txt\n+++ b/f.txt\n${body}`;
}

const ours = (pre: string, patch: string) => applyFilePatch(pre, parsePatch(patch).files[0]);

test('a zero-context insertion @@ -2,0 +3 @@ lands after line 2, as git apply --unidiff-zero puts it', () => {
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -2,0 +3 @@\n+X\n';
  assert.equal(gitApplyU0('a\nb\nc\n', patch), 'a\nb\nX\nc\n');
  assert.equal(ours('a\nb\nc\n', patch), 'a\nb\nX\nc\n');
  // The edit the incremental parser is told about: nothing removed, one line inserted at index 2.
  const { edits } = applyFilePatchWithEdits('a\nb\nc\n', parsePatch(patch).files[0]);
  assert.deepEqual(edits, [{ oldStart: 2, oldCount: 0, newStart: 2, newCount: 1 }]);
});

test('zero-context insertions at the top, in the middle and after the last line, in one patch', () => {
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1 @@\n+top\n@@ -1,0 +3,2 @@\n+m1\n+m2\n@@ -3,0 +7 @@\n+end\n';
  const expected = gitApplyU0('a\nb\nc\n', patch);
  assert.equal(expected, 'top\na\nm1\nm2\nb\nc\nend\n');
  assert.equal(ours('a\nb\nc\n', patch), expected);
  // Old line 2 (b) sits below the top and middle insertions: it moves down three lines.
  assert.equal(mapOldLineToNew(parsePatch(patch).files[0], 2), 5);
});

test('zero-context deletions and replacements keep their stated lines even when the same text repeats', () => {
  const pre = 'x\ny\nx\ny\nx\n';
  for (const post of ['x\ny\ny\nx\n', 'x\ny\nx\nY\nx\n', 'x\nx\ny\nx\n', 'x\ny\nx\ny\n', 'y\nx\ny\nx\n']) {
    const patch = gitDiffU0(pre, post);
    assert.equal(gitApplyU0(pre, patch), post, patch);
    assert.equal(ours(pre, patch), post, patch);
  }
});

test('a zero-context deletion anchors on the line that follows it, and lines below move up', () => {
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -2 +1,0 @@\n-b\n';
  assert.equal(gitApplyU0('a\nb\nc\n', patch), 'a\nc\n');
  const file = parsePatch(patch).files[0];
  assert.equal(ours('a\nb\nc\n', patch), 'a\nc\n');
  // The removed b sat where c now is (new line 2); c itself moves from old line 3 to new line 2.
  assert.deepEqual(
    changedLines(file).map((c) => [c.kind, c.text, c.oldLine, c.newLine]),
    [['del', 'b', 2, 2]],
  );
  assert.deepEqual(
    [1, 2, 3].map((l) => mapOldLineToNew(file, l)),
    [1, 2, 2],
  );
});

test('a hunk is searched for up to 1000 lines from where its header puts it, and no further', () => {
  const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n';
  const pad = (n: number) => 'pad\n'.repeat(n);
  assert.equal(ours(`${pad(1000)}a\nb\n`, patch), `${pad(1000)}a\nB\n`);
  assert.throws(() => ours(`${pad(1001)}a\nb\n`, patch), /hunk @@ -1,2 \+1,2 @@ \(patch line 3\) does not apply/);
});

test('random edits of files with repeated and blank lines: git diff -U0, then ours == git apply --unidiff-zero == the new text', () => {
  const next = rng(19);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const words = ['a', 'b', 'c', '', 'def f():', '    return 1'];
  for (let n = 0; n < 40; n++) {
    const pre = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pick(words));
    const post: string[] = [];
    for (const line of pre) {
      const r = next();
      if (r < 0.15) continue; // deleted
      if (r < 0.3)
        post.push(pick(words)); // replaced
      else post.push(line);
      if (next() < 0.2) post.push(`new ${n}`); // inserted after it
    }
    if (next() < 0.3) post.unshift('first'); // inserted at the top
    const preText = pre.join('\n') + '\n';
    const postText = post.length ? post.join('\n') + '\n' : '';
    if (preText === postText || postText === '') continue;
    const patch = gitDiffU0(preText, postText);
    const expected = gitApplyU0(preText, patch);
    assert.equal(expected, postText, `git itself, case ${n}`);
    assert.equal(ours(preText, patch), expected, `case ${n}:\n${patch}`);
    // Every line the patch keeps is found where mapOldLineToNew says it went.
    const file = parsePatch(patch).files[0];
    const removed = new Set(changedLines(file).flatMap((c) => (c.kind === 'del' ? [c.oldLine] : [])));
    for (let old = 1; old <= pre.length; old++) {
      if (!removed.has(old)) assert.equal(post[mapOldLineToNew(file, old) - 1], pre[old - 1], `case ${n} line ${old}`);
    }
  }
});
