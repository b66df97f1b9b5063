// The behaviour-bearing form of drift facts (src/core/analysis/driftFacts.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { branchConditions, canonicalGateInputs, canonicalGates, negate } from '../../../src/core/analysis/driftFacts';

test('a negated comparison is the comparison turned round', () => {
  assert.equal(negate('mark is None'), 'mark is not None');
  assert.equal(negate('mark is not None'), 'mark is None');
  assert.equal(negate("delimiter==';'"), "delimiter!=';'");
  assert.equal(negate('key not in cfg'), 'key in cfg');
  assert.equal(negate('not ok'), 'ok');
  assert.equal(negate('f(x)'), 'not(f(x))');
});

test('an elif branch is known by its own condition, whatever comes before it', () => {
  assert.deepEqual(branchConditions(["not(cleaned.startswith('-'))", "cleaned.startswith('(')"]), [
    "cleaned.startswith('(')",
  ]);
  // an else keeps its negation, in canonical polarity
  assert.deepEqual(branchConditions(['not(mark is None)']), ['mark is not None']);
});

test('gates in another order compare equal', () => {
  const a = canonicalGates([
    { key: "x.startswith('-') => return", lines: [1] },
    { key: "not(x.startswith('-')) && x.startswith('(') => return", lines: [2] },
  ]);
  const b = canonicalGates([
    { key: "x.startswith('(') => return", lines: [1] },
    { key: "not(x.startswith('(')) && x.startswith('-') => return", lines: [2] },
  ]);
  assert.deepEqual(a.map((f) => f.key).sort(), b.map((f) => f.key).sort());
});

test('of a tuple assignment feeding a check, only the names the checks read count', () => {
  const gates = [{ key: 'match is None => raise ParseError', lines: [9] }];
  const inputs = canonicalGateInputs(
    [
      { key: "cleaned.startswith('-') :: negative,cleaned=True,cleaned[1:].lstrip()", lines: [3] },
      { key: ' :: match=_AMOUNT_RE.fullmatch(cleaned)', lines: [8] },
    ],
    gates,
  );
  assert.deepEqual(
    inputs.map((f) => f.key),
    ["cleaned.startswith('-') :: cleaned=cleaned[1:].lstrip()", ' :: match=_AMOUNT_RE.fullmatch(cleaned)'],
  );
});

test('`x if not c else y` and `y if c else x` are one value', () => {
  const gates = [{ key: 'mark is None => raise E', lines: [9] }];
  const a = canonicalGateInputs([{ key: " :: mark=',' if delimiter==';' else None", lines: [1] }], gates);
  const b = canonicalGateInputs([{ key: " :: mark=None if delimiter!=';' else ','", lines: [1] }], gates);
  assert.deepEqual(a, b);
});
