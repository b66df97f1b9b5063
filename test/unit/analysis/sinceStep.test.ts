import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lineEditsBetween, mapUnchanged } from '../../../src/core/analysis/sinceStep';

const span = (startLine: number, endLine: number) => ({ startLine, endLine, kind: 'drift' as const });
const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');

describe("a submitted step's lines in the work tree of later steps", () => {
  it('finds no edits between equal texts, and maps spans to themselves', () => {
    const text = lines('a', 'b', 'c');
    assert.deepEqual(lineEditsBetween(text, text), []);
    assert.deepEqual(mapUnchanged(span(2, 3), []), span(2, 3));
  });

  it('shifts spans below lines inserted or deleted since, keeps spans above', () => {
    const before = lines('def f():', '  return 1', '', 'def g():', '  return 2');
    const after = lines('import os', 'import re', 'def f():', '  return 1', '', 'def g():', '  return 2');
    const edits = lineEditsBetween(before, after);
    assert.deepEqual(mapUnchanged(span(4, 5), edits), span(6, 7));
    const shorter = lineEditsBetween(after, before);
    assert.deepEqual(mapUnchanged(span(6, 7), shorter), span(4, 5));
    assert.equal(mapUnchanged(span(1, 1), shorter), undefined, 'the import line itself was deleted');
  });

  it('drops a span whose own lines were changed since, keeps one that only had lines inserted inside it', () => {
    const before = lines('def f(x):', '  y = x or 0', '  return y', 'def g():', '  pass');
    const changed = lines('def f(x):', '  if x is None: raise ValueError', '  return x', 'def g():', '  pass');
    const edits = lineEditsBetween(before, changed);
    assert.equal(mapUnchanged(span(2, 2), edits), undefined);
    assert.equal(mapUnchanged(span(1, 3), edits), undefined, 'the function body changed');
    assert.deepEqual(mapUnchanged(span(4, 5), edits), span(4, 5));
    const inserted = lines('def f(x):', '  y = x or 0', '  log(y)', '  return y', 'def g():', '  pass');
    assert.deepEqual(mapUnchanged(span(1, 3), lineEditsBetween(before, inserted)), span(1, 4));
  });

  it('handles several edits at once (applied bottom-up on the old numbers) and texts without a final newline', () => {
    const before = 'a\nb\nc\nd\ne\nf';
    const after = 'x\na\nb\nd\ne\nf\ng';
    const edits = lineEditsBetween(before, after);
    assert.deepEqual(mapUnchanged(span(1, 2), edits), span(2, 3));
    assert.equal(mapUnchanged(span(3, 3), edits), undefined);
    assert.deepEqual(mapUnchanged(span(4, 5), edits), span(4, 5));
  });
});
