import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hunkScope } from '../../../src/core/study/hunkScope';

const diff = (file: string, hunks: string) => `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n${hunks}`;

const GOLD = diff('a.py', '@@ -10,3 +10,4 @@\n x\n-y\n+y2\n+y3\n z\n');

test('the same hunk as gold: no overshoot, no undershoot', () => {
  assert.deepEqual(hunkScope(diff('a.py', '@@ -11,1 +11,1 @@\n-y\n+yy\n'), GOLD), {
    overshootLines: 0,
    undershootLines: 0,
  });
});

test('a hunk gold does not touch is overshoot; gold left out is undershoot (changed lines, not context)', () => {
  const step = diff('a.py', '@@ -40,2 +40,2 @@\n p\n-q\n+q2\n') + diff('b.py', '@@ -1,1 +1,2 @@\n k\n+new\n');
  assert.deepEqual(hunkScope(step, GOLD), { overshootLines: 3, undershootLines: 3 });
});

test('an empty step patch undershoots all of gold', () => {
  assert.deepEqual(hunkScope('', GOLD), { overshootLines: 0, undershootLines: 3 });
});
