// The drift heuristics measured on a labelled set (driftSet/labelledSet.ts): precision and recall
// per label, for every suggestion and for those drawn at full strength (high confidence). The
// README's table is this test's output (`node --import tsx --test test/unit/analysis/driftPrecision.test.ts`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelledSet } from './driftSet/labelledSet';
import { measure, scoreTable, suggestionsOf } from './driftSet/measure';

const cases = labelledSet();
const highOnly = (s: { confidence?: string }) => s.confidence !== 'low';

test('an equivalent step-1 fix (checks in the other order, a sign instead of a flag) gets no drift suggestion', async () => {
  const c = cases.find((x) => x.name.includes('a sign instead of a flag'))!;
  assert.deepEqual(
    (await suggestionsOf(c)).map((s) => `${s.symbol}: ${s.label}`),
    [],
  );
  const split = cases.find((x) => x.name.includes('one statement per assignment'))!;
  assert.deepEqual(
    (await suggestionsOf(split)).map((s) => `${s.symbol}: ${s.label}`),
    [],
  );
});

test('no equivalent rewrite of gold is suggested at full strength', async () => {
  for (const c of cases.filter((x) => x.source === 'gold rewrite')) {
    const loud = (await suggestionsOf(c)).filter(highOnly);
    assert.deepEqual(
      loud.map((s) => `${s.symbol}: ${s.label}`),
      [],
      c.name,
    );
  }
});

test('the real input gating drift stays suggested at full strength (demo step 1, pydicom-1458)', async () => {
  for (const name of ["demo step 1, the demo agent's patch", 'pydicom__pydicom-1458']) {
    const c = cases.find((x) => x.name.startsWith(name))!;
    const s = (await suggestionsOf(c)).find((x) => x.label === 'INPUT GATING');
    assert.ok(s, name);
    assert.equal(s.confidence, 'high', name);
  }
});

test('precision and recall per label: at least what docs/reference/drift.md reports', async () => {
  const all = await measure(cases);
  const loud = await measure(cases, highOnly);
  process.stdout.write(`every suggestion:\n${scoreTable(all)}\n\nhigh confidence only:\n${scoreTable(loud)}\n`);
  const gating = all.perLabel.get('INPUT GATING')!;
  const gatingLoud = loud.perLabel.get('INPUT GATING')!;
  // Before the behaviour-bearing comparison: 2 right of 10 (20 %).
  assert.ok(gating.tp / (gating.tp + gating.fp) >= 2 / 6, scoreTable(all));
  assert.ok(gatingLoud.tp / (gatingLoud.tp + gatingLoud.fp) >= 2 / 4, scoreTable(loud));
  assert.equal(gating.fn, 0, 'recall of INPUT GATING stays 100 %');
});
