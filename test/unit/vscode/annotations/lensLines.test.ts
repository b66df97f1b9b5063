// Lens lines between parses: shifted by edits elsewhere, dropped (so the file is parsed again)
// when an edit touches a symbol's first line, a change event was missed, or the analysis changed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LensLines } from '../../../../src/vscode/annotations/lensLines';
import { toLineEdit } from '../../../../src/core/analysis/rangeMapping';

describe('LensLines', () => {
  const doc = {};
  const analysis = {};
  const parsed = () =>
    new Map([
      ['f', 10],
      ['g', 20],
    ]);

  it('moves the lines with edits above them and keeps those above an edit', () => {
    const lines = new LensLines();
    lines.set(doc, analysis, 1, parsed());
    // Two lines typed at the top (0-based line 0, text with two newlines: three lines where one was).
    lines.edited(doc, 2, [toLineEdit(0, 0, '# a\n# b\n')]);
    assert.deepEqual(
      [...lines.get(doc, analysis, 2)!],
      [
        ['f', 12],
        ['g', 22],
      ],
    );
    // A line deleted between f and g (0-based 14..15 joined): g moves up, f stays.
    lines.edited(doc, 3, [toLineEdit(14, 15, '')]);
    assert.deepEqual(
      [...lines.get(doc, analysis, 3)!],
      [
        ['f', 12],
        ['g', 21],
      ],
    );
  });

  it("asks for a parse again when an edit touches a symbol's first line", () => {
    const lines = new LensLines();
    lines.set(doc, analysis, 1, parsed());
    lines.edited(doc, 2, [toLineEdit(19, 19, 'def g2(value):')]);
    assert.equal(lines.get(doc, analysis, 2), undefined);
  });

  it('asks for a parse again after a missed change, for another analysis, or another version', () => {
    const lines = new LensLines();
    lines.set(doc, analysis, 1, parsed());
    assert.equal(lines.get(doc, {}, 1), undefined);
    assert.equal(lines.get(doc, analysis, 2), undefined);
    lines.edited(doc, 3, [toLineEdit(0, 0, 'x\n')]);
    assert.equal(lines.get(doc, analysis, 3), undefined);
    assert.equal(lines.get(doc, analysis, 1), undefined);
  });
});
