import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv } from '../../../src/core/study/csv';

test('CSV quotes fields with commas, quotes and line breaks; null is empty', () => {
  const text = toCsv<{ a: string | null; b: number; c: string }>(
    ['a', 'b', 'c'],
    [
      { a: 'plain', b: 1, c: 'x,y' },
      { a: null, b: 2.5, c: 'diff --git\n+say "hi"\n' },
    ],
  );
  assert.equal(text, 'a,b,c\r\nplain,1,"x,y"\r\n,2.5,"diff --git\n+say ""hi""\n"\r\n');
});
