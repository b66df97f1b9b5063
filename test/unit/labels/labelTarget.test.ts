// Labelling a finished chain's earlier step: a symbol that a later step edited again is labelled
// in the step's own version (its end commit), with the step's own lines, instead of refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangedSymbol, StepAnnotations } from '../../../src/app/analysis/annotateStep';
import { labelRecord, placeOf, stepSymbolRecord } from '../../../src/vscode/labels/labelTarget';

const ser: ChangedSymbol = {
  file: 'src/marshmallow/fields.py',
  symbol: 'TimeDelta._serialize',
  startLine: 1485,
  endLine: 1491,
};
const other: ChangedSymbol = {
  file: 'src/marshmallow/fields.py',
  symbol: 'TimeDelta.__init__',
  startLine: 1440,
  endLine: 1470,
};

/** Step 1 of a 3-step chain as annotated after step 3: step 3 rewrote `_serialize`, and moved `__init__` down 4 lines. */
const step1 = {
  runId: 'run-1',
  chainId: 'marshmallow-chain',
  order: 1,
  instance: 'marshmallow-code__marshmallow-1867',
  symbols: [{ ...other, startLine: 1444, endLine: 1474 }],
  stepSymbols: [other, ser],
  lines: {
    toWorkTree: <T extends { startLine: number; endLine: number }>(_f: string, s: T) =>
      s.startLine >= 1480 ? undefined : { ...s, startLine: s.startLine + 4, endLine: s.endLine + 4 },
    toStep: <T extends { startLine: number; endLine: number }>(_f: string, s: T) =>
      s.startLine >= 1480 ? undefined : { ...s, startLine: s.startLine - 4, endLine: s.endLine - 4 },
    changedSince: ['src/marshmallow/fields.py'],
  },
} as unknown as StepAnnotations;

test('a symbol a later step changed is shown in the step version and labelled with the step’s lines', () => {
  assert.deepEqual(placeOf(step1, ser), {
    in: 'step version',
    lines: { file: ser.file, symbol: ser.symbol, startLine: 1485, endLine: 1491 },
  });
  const r = stepSymbolRecord(step1, ser, 'ALGORITHM', '', 'L1', new Date('2026-01-01T00:00:00Z'));
  assert.deepEqual(
    [r.run, r.step, r.symbol, r.range, r.labeller, r.source],
    ['run-1', 1, 'TimeDelta._serialize', { startLine: 1485, endLine: 1491 }, 'L1', 'human'],
  );
  // the work-tree path (a comment on lines of the work tree) cannot place it, as before
  assert.throws(
    () =>
      labelRecord(step1, { file: ser.file, symbol: ser.symbol, startLine: 1485, endLine: 1491 }, 'ALGORITHM', '', 'L1'),
    /have changed since step 1/,
  );
});

test('a symbol still in the work tree is shown there, and recorded in the step’s lines', () => {
  assert.deepEqual(placeOf(step1, other), {
    in: 'work tree',
    lines: { file: other.file, symbol: other.symbol, startLine: 1444, endLine: 1474 },
  });
  const r = stepSymbolRecord(step1, other, 'STYLE', '', 'L1');
  assert.deepEqual(r.range, { startLine: 1440, endLine: 1470 });
});
