import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agreement, cohenKappa } from '../../../src/core/labels/agreement';
import { formatAgreement } from '../../../src/core/labels/format';
import { parseLabels } from '../../../src/core/labels/parse';
import { suggestionsAsLabels } from '../../../src/core/labels/suggested';
import { groupOf, isIec } from '../../../src/core/labels/taxonomy';
import { DRIFT_LABELS, type DriftLabel, type DriftLabelRecord } from '../../../src/protocol/labels';
import { analyzeOne } from '../analysis/helpers';

const rec = (symbol: string | null, label: DriftLabel, extra: Partial<DriftLabelRecord> = {}): DriftLabelRecord => ({
  chain: 'c1',
  step: 1,
  instance: 'pydicom__pydicom-1458',
  file: 'a.py',
  symbol,
  range: { startLine: 10, endLine: 20 },
  label,
  rationale: '',
  labeller: 'ann',
  source: 'human',
  time: '2025-01-01T00:00:00Z',
  ...extra,
});

test('groups and the IEC flag follow docs/reference/drift-taxonomy.md', () => {
  assert.deepEqual(DRIFT_LABELS.map(groupOf), ['A', 'A', 'A', 'B', 'B', 'B', 'B', 'B', 'C', 'D']);
  assert.deepEqual(DRIFT_LABELS.filter(isIec), ['INPUT GATING', 'SILENT FALLBACK', 'ERROR HANDLING']);
});

test("Cohen's kappa on a textbook table (Cohen 1960 style: 20/5/10/15 → 0.40)", () => {
  const pairs: [string, string][] = [
    ...Array<[string, string]>(20).fill(['y', 'y']),
    ...Array<[string, string]>(5).fill(['y', 'n']),
    ...Array<[string, string]>(10).fill(['n', 'y']),
    ...Array<[string, string]>(15).fill(['n', 'n']),
  ];
  const k = cohenKappa(pairs);
  assert.equal(k.n, 50);
  assert.equal(k.observed, 0.7);
  assert.equal(k.expected, 0.5);
  assert.ok(Math.abs(k.kappa! - 0.4) < 1e-12);
  assert.equal(
    cohenKappa([
      ['x', 'x'],
      ['x', 'x'],
    ]).kappa,
    null,
  );
});

test('pairs by instance+file+symbol, else by overlapping range; counts targets only one side labelled', () => {
  const a = [
    rec('f', 'INPUT GATING'),
    rec('g', 'EQUIVALENT'),
    rec(null, 'EXTRA EDITS', { range: { startLine: 30, endLine: 35 } }),
    rec('only_a', 'STYLE'),
  ];
  const b = [
    rec('f', 'INPUT GATING', { labeller: 'bob' }),
    rec('g', 'STYLE', { labeller: 'bob' }),
    rec(null, 'EXTRA EDITS', { range: { startLine: 33, endLine: 40 } }),
    rec('h', 'INCOMPLETE'),
  ];
  const r = agreement(a, b);
  assert.equal(r.n, 3);
  assert.equal(r.onlyA, 1);
  assert.equal(r.onlyB, 1);
  assert.equal(r.confusion['INPUT GATING']['INPUT GATING'], 1);
  assert.equal(r.confusion.EQUIVALENT.STYLE, 1);
  assert.equal(r.confusion['EXTRA EDITS']['EXTRA EDITS'], 1);
  // EQUIVALENT vs STYLE disagree on the label but agree on the group (A).
  assert.equal(r.groupKappa.observed, 1);
  const text = formatAgreement(r, 'a.jsonl', 'b.jsonl');
  assert.match(
    text,
    /^Cohen's kappa: 0\.\d{3}  \(n = 3 targets labelled in both; 1 only in a\.jsonl, 1 only in b\.jsonl\)/,
  );
  assert.match(text, /confusion: rows a\.jsonl, columns b\.jsonl/);
  assert.match(text, /\nEQ\s+0\s+1\s+0\s+0\n/);
  // po = 2/3, pe = 2/9: kappa = (2/3 - 2/9) / (1 - 2/9) = 4/7
  assert.ok(Math.abs(r.kappa! - 4 / 7) < 1e-12);
});

test("a labeller's later label for the same target replaces the earlier one", () => {
  const a = [
    rec('f', 'STYLE', { time: '2025-01-01T00:00:00Z' }),
    rec('f', 'INPUT GATING', { time: '2025-01-02T00:00:00Z' }),
  ];
  const r = agreement(a, [rec('f', 'INPUT GATING')]);
  assert.equal(r.n, 1);
  assert.equal(r.observed, 1);
});

test('bad JSONL lines: one error naming file, line and field for each', () => {
  const good = JSON.stringify(rec('f', 'INPUT GATING'));
  const badLabel = JSON.stringify({ ...rec('f', 'INPUT GATING'), label: 'INPUT-GATING' });
  const badRange = JSON.stringify({ ...rec('f', 'INPUT GATING'), range: { startLine: 5, endLine: 2 } });
  assert.throws(
    () => parseLabels([good, '', badLabel, '{oops', badRange].join('\n'), 'a.jsonl'),
    (e: unknown) => {
      const err = e as { message: string; details: string[] };
      assert.match(err.message, /^a\.jsonl: 3 invalid label field\(s\)/);
      assert.match(err.details[0], /^a\.jsonl line 3: label: /);
      assert.match(err.details[1], /^a\.jsonl line 4: not JSON/);
      assert.match(err.details[2], /^a\.jsonl line 5: range\.endLine: endLine must not be before startLine/);
      return true;
    },
  );
  assert.equal(parseLabels(`${good}\n\n`, 'ok.jsonl').length, 1);
});

test("agreement with ChainLens's suggestions: primary suggestions become label records", async () => {
  const base = 'def f(d):\n    return d["k"]\n';
  const a = await analyzeOne(
    'a.py',
    base,
    'def f(d):\n    return d.get("k", 0)\n',
    'def f(d):\n    if "k" not in d:\n        raise KeyError("k")\n    return d["k"]\n',
  );
  const suggested = suggestionsAsLabels(a, { chain: 'c1', step: 1, instance: 'i1', time: '2025-01-01T00:00:00Z' });
  assert.equal(suggested.length, 1);
  assert.equal(suggested[0].source, 'suggested');
  assert.equal(suggested[0].label, 'INPUT GATING');
  const human = [rec('f', 'SILENT FALLBACK', { instance: 'i1' })];
  const r = agreement(human, suggested);
  assert.equal(r.n, 1);
  assert.equal(r.confusion['SILENT FALLBACK']['INPUT GATING'], 1);
});
