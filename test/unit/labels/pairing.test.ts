// How two labellers' records are paired before kappa is computed: same instance, file and
// symbol; records without a symbol pair with the other side's record in the same file whose line
// range overlaps most. Every pair counts in kappa, so a wrong pair is a wrong agreement number.
// Each test names the mutation of src/core/labels/agreement.ts it was checked against (applied by
// hand, test seen failing, reverted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agreement, pairLabels } from '../../../src/core/labels/agreement';
import type { DriftLabel, DriftLabelRecord } from '../../../src/protocol/labels';

const rec = (range: [number, number], label: DriftLabel, extra: Partial<DriftLabelRecord> = {}): DriftLabelRecord => ({
  chain: 'c1',
  step: 1,
  instance: 'repo__repo-1',
  file: 'a.py',
  symbol: null,
  range: { startLine: range[0], endLine: range[1] },
  label,
  rationale: '',
  labeller: 'ann',
  source: 'human',
  time: '2025-01-01T00:00:00Z',
  ...extra,
});

test('ranges that touch but do not overlap (1-5, 6-10) stay unpaired (mutation: overlap >= 0)', () => {
  const r = pairLabels([rec([1, 5], 'STYLE')], [rec([6, 10], 'STYLE')]);
  assert.deepEqual(r, { pairs: [], onlyA: 1, onlyB: 1 });
  const k = agreement([rec([1, 5], 'STYLE')], [rec([6, 10], 'ALGORITHM')]);
  assert.equal(k.n, 0);
  assert.equal(k.kappa, null);
});

test('ranges sharing exactly one line pair (1-5 with 5-9, and single lines 20-20 with 20-20) (mutation: overlap > 1)', () => {
  const r = pairLabels(
    [rec([1, 5], 'STYLE'), rec([20, 20], 'ALGORITHM')],
    [rec([5, 9], 'STYLE'), rec([20, 20], 'INCOMPLETE')],
  );
  assert.equal(r.onlyA, 0);
  assert.equal(r.onlyB, 0);
  assert.deepEqual(
    r.pairs.map((p) => [p.target, p.a, p.b]),
    [
      ['repo__repo-1 a.py 1-5', 'STYLE', 'STYLE'],
      ['repo__repo-1 a.py 20-20', 'ALGORITHM', 'INCOMPLETE'],
    ],
  );
});

test('a range record pairs with the candidate it overlaps most, whichever comes first (mutation: >= / first found)', () => {
  for (const b of [
    [rec([1, 2], 'STYLE'), rec([3, 12], 'ALGORITHM')],
    [rec([3, 12], 'ALGORITHM'), rec([1, 2], 'STYLE')],
  ]) {
    const r = pairLabels([rec([1, 10], 'ALGORITHM')], b);
    assert.deepEqual(
      r.pairs.map((p) => [p.a, p.b]),
      [['ALGORITHM', 'ALGORITHM']],
    );
    assert.equal(r.onlyB, 1);
  }
});

test("between candidates that overlap equally, the first in the other labeller's file is taken (mutation: >=)", () => {
  const r = pairLabels([rec([5, 6], 'STYLE')], [rec([1, 5], 'ALGORITHM'), rec([6, 9], 'INCOMPLETE')]);
  assert.deepEqual(
    r.pairs.map((p) => p.b),
    ['ALGORITHM'],
  );
});

test('each record is used once: two A ranges over one B range make one pair and one A left over', () => {
  const r = pairLabels([rec([1, 4], 'STYLE'), rec([3, 8], 'ALGORITHM')], [rec([2, 6], 'STYLE')]);
  assert.equal(r.pairs.length, 1);
  assert.equal(r.onlyA, 1);
  assert.equal(r.onlyB, 0);
});

test('overlapping ranges in another file or another instance never pair', () => {
  const r = pairLabels(
    [rec([1, 10], 'STYLE'), rec([1, 10], 'STYLE', { file: 'b.py' })],
    [rec([1, 10], 'STYLE', { instance: 'repo__repo-2' }), rec([1, 10], 'STYLE', { file: 'c.py' })],
  );
  assert.deepEqual(r, { pairs: [], onlyA: 2, onlyB: 2 });
});

test('two records naming different symbols never pair by range; a symbol record and a range record do', () => {
  const f = rec([1, 10], 'STYLE', { symbol: 'f' });
  const g = rec([1, 10], 'STYLE', { symbol: 'g' });
  assert.deepEqual(pairLabels([f], [g]), { pairs: [], onlyA: 1, onlyB: 1 });
  const byRange = pairLabels([f], [rec([5, 6], 'ALGORITHM')]);
  assert.deepEqual(
    byRange.pairs.map((p) => [p.target, p.a, p.b]),
    [['repo__repo-1 a.py 1-10', 'STYLE', 'ALGORITHM']],
  );
  const reverse = pairLabels([rec([5, 6], 'ALGORITHM')], [f]);
  assert.equal(reverse.pairs.length, 1);
  assert.equal(reverse.onlyB, 0);
});

test('a symbol match wins over a range match, even when the range record comes first', () => {
  const a = [rec([1, 10], 'ALGORITHM'), rec([1, 10], 'STYLE', { symbol: 'f' })];
  const b = [rec([1, 10], 'STYLE', { symbol: 'f' })];
  const r = pairLabels(a, b);
  assert.deepEqual(
    r.pairs.map((p) => [p.target, p.a, p.b]),
    [['repo__repo-1 a.py f', 'STYLE', 'STYLE']],
  );
  assert.equal(r.onlyA, 1);
});

test("a labeller's later label of one range replaces the earlier; the same time keeps the later record", () => {
  const early = rec([1, 5], 'STYLE', { time: '2025-01-01T00:00:00Z' });
  const late = rec([1, 5], 'ALGORITHM', { time: '2025-01-01T00:00:01Z' });
  const b = [rec([1, 5], 'ALGORITHM')];
  for (const a of [
    [early, late],
    [late, early],
  ]) {
    const r = pairLabels(a, b);
    assert.deepEqual(
      r.pairs.map((p) => p.a),
      ['ALGORITHM'],
    );
    assert.equal(r.onlyA, 0);
  }
  // Same time (e.g. a re-export): the one written last is the labeller's answer.
  const again = rec([1, 5], 'INCOMPLETE');
  assert.deepEqual(
    pairLabels([rec([1, 5], 'STYLE'), again], b).pairs.map((p) => p.a),
    ['INCOMPLETE'],
  );
  // Other ranges are other targets, not replacements.
  assert.equal(pairLabels([rec([1, 5], 'STYLE'), rec([1, 6], 'STYLE')], b).onlyA, 1);
});

test('a symbol literally named "null" is a symbol: it never pairs with a range record by name', () => {
  // Mutations checked: range records put into the by-symbol index, or looked up in it.
  const named = rec([1, 5], 'STYLE', { symbol: 'null' });
  const range = rec([20, 30], 'STYLE');
  assert.deepEqual(pairLabels([named], [range]), { pairs: [], onlyA: 1, onlyB: 1 });
  assert.deepEqual(pairLabels([range], [named]), { pairs: [], onlyA: 1, onlyB: 1 });
});
