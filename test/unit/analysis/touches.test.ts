// Where a patch's changed lines are reported: an undershoot names the gold lines and where they
// sit on the step's version of the file (shifted by the step's own edits above them), and an
// EXTRA EDITS suggestion quotes the step's removed lines from the base and its added lines from
// the step. Mutations checked (applied by hand / by `npm run mutate`, tests seen failing,
// reverted) in touchesOf of src/core/analysis/analyzeStep.ts: the step-side line of a gold change
// taken unmapped, the evidence side of removed lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeOne, suggestion } from './helpers';

const base = 'import os\n\n\ndef f():\n    x = 1\n    return x\n\n\ndef g():\n    y = 2\n    return y\n';

test("an undershoot's step-side range follows the step's lines added above it", async () => {
  const step = base.replace('import os\n', 'import os\nimport re\nimport sys\n');
  const gold = base.replace('    return y', '    return y + 1');
  const a = await analyzeOne('m.py', base, step, gold);
  const g = a.symbols.undershoot.find((e) => e.symbol === 'g');
  assert.ok(g, JSON.stringify(a.symbols.undershoot));
  assert.deepEqual(g.ranges, [
    { side: 'gold', startLine: 11, endLine: 11 },
    { side: 'step', startLine: 13, endLine: 13 },
  ]);
});

test('EXTRA EDITS evidence: the removed line from the base at its old line, the added one from the step', async () => {
  const step = base.replace('    y = 2', '    y = 3');
  const gold = base.replace('    return x', '    return x + 1');
  const a = await analyzeOne('m.py', base, step, gold);
  const extra = suggestion(a, 'EXTRA EDITS');
  assert.ok(extra);
  assert.equal(extra.symbol, 'g');
  assert.deepEqual(extra.evidence, [
    { side: 'base', file: 'm.py', line: 10, text: '    y = 2' },
    { side: 'step', file: 'm.py', line: 10, text: '    y = 3' },
  ]);
});
