// What the editor says about a place with several marks: one note per kind, plain words first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { annotationNotes } from '../../../../src/vscode/annotations/annotationNotes';
import type { Decoration, DriftSuggestion } from '../../../../src/protocol/analysis';

const FILE = 'invoicekit/parse.py';
const overshoot: Decoration = {
  kind: 'overshoot',
  startLine: 70,
  endLine: 71,
  hover: 'Overshoot: …',
  symbol: 'parse_decimal',
};
const drift = (label: DriftSuggestion['label'], extra: Partial<Decoration> = {}): Decoration => ({
  kind: 'drift',
  startLine: 70,
  endLine: 70,
  hover: `Suggested drift: ${label}`,
  symbol: 'parse_decimal',
  label,
  iec: label === 'INPUT GATING',
  ...extra,
});
const suggestion = (label: DriftSuggestion['label']): DriftSuggestion => ({
  file: FILE,
  symbol: 'parse_decimal',
  label,
  group: 'B',
  iec: true,
  primary: true,
  reason: 'what the checks test differs',
  evidence: [],
  range: { startLine: 66, endLine: 72 },
  source: 'suggested',
});

test('an overshoot line with INPUT GATING and EXTRA EDITS: two notes, EXTRA EDITS folded into the overshoot one', () => {
  const notes = annotationNotes(
    FILE,
    [overshoot, drift('EXTRA EDITS'), drift('INPUT GATING')],
    [suggestion('INPUT GATING')],
  );
  assert.deepEqual(
    notes.map((n) => [n.kind, n.code]),
    [
      ['drift', 'drift: INPUT GATING'],
      ['overshoot', 'overshoot'],
    ],
  );
  assert.deepEqual(notes[1].labels, ['EXTRA EDITS']);
  for (const n of notes) assert.doesNotMatch(n.message, /EXTRA EDITS|INPUT GATING|Overshoot/, 'plain words, no codes');
  assert.match(
    notes[0].message,
    /^Differs from gold\? parse_decimal checks its input differently \(what the checks test differs\)/,
  );
  assert.match(notes[1].message, /^Not in gold: this step changes parse_decimal, which the gold patch leaves alone/);
});

test('several drift labels of one symbol are one note; without an overshoot mark EXTRA EDITS is said', () => {
  const notes = annotationNotes(
    FILE,
    [drift('EXTRA EDITS'), drift('RETURN SHAPE', { startLine: 72, endLine: 72 })],
    [],
  );
  assert.equal(notes.length, 1);
  assert.equal(notes[0].code, 'drift: EXTRA EDITS, RETURN SHAPE');
  assert.deepEqual([notes[0].startLine, notes[0].endLine], [70, 72]);
  assert.match(notes[0].message, /changes code the gold patch leaves alone and returns a different shape of value/);
});

test('a low-confidence suggestion says so and is a hint, not an input/error contract warning', () => {
  const [note] = annotationNotes(FILE, [drift('INPUT GATING', { confidence: 'low' })], [suggestion('INPUT GATING')]);
  assert.equal(note.code, 'drift: INPUT GATING (low confidence)');
  assert.equal(note.iec, false);
  assert.equal(note.low, true);
  assert.match(note.message, /Low confidence/);
});
