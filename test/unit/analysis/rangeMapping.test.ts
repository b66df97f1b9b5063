import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mapSpan, mapSpans, toLineEdit } from '../../../src/core/analysis/rangeMapping';

const span = (startLine: number, endLine: number) => ({ startLine, endLine, kind: 'overshoot' as const });

describe('annotation ranges follow edits until the next analysis', () => {
  it('keeps ranges above an edit and shifts ranges below it by the lines added or removed', () => {
    assert.deepEqual(mapSpan(span(2, 3), { startLine: 10, endLine: 10, newLineCount: 3 }), span(2, 3));
    assert.deepEqual(mapSpan(span(20, 22), { startLine: 10, endLine: 10, newLineCount: 3 }), span(22, 24));
    assert.deepEqual(mapSpan(span(20, 22), { startLine: 10, endLine: 14, newLineCount: 1 }), span(16, 18));
  });

  it('stretches a range when lines are typed inside it and keeps its extra fields', () => {
    // Enter pressed at the end of line 11 inside 10..12: line 11 becomes two lines.
    const r = mapSpan(span(10, 12), toLineEdit(10, 10, '\n'));
    assert.deepEqual(r, span(10, 13));
  });

  it('drops a range whose lines were all deleted, keeps one partly deleted', () => {
    assert.equal(mapSpan(span(5, 6), { startLine: 4, endLine: 7, newLineCount: 0 }), undefined);
    assert.deepEqual(mapSpan(span(5, 9), { startLine: 4, endLine: 6, newLineCount: 1 }), span(4, 7));
  });

  it('applies the edits of one change event in order', () => {
    const out = mapSpans([span(1, 1), span(30, 31)], [toLineEdit(19, 19, 'a\nb\n'), toLineEdit(4, 4, 'x')]);
    assert.deepEqual(out, [span(1, 1), span(32, 33)]);
  });
});
