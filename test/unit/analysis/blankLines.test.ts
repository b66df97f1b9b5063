// Blank lines are layout, not a change of any symbol: a step that adds or removes only blank
// lines outside the gold patch's symbols has no overshoot, and gold's blank lines are no
// undershoot. Mutation checked (applied by hand, tests seen failing, reverted): the
// `if (isBlank(cl.text)) continue;` of touchesOf in src/core/analysis/analyzeStep.ts removed,
// which reported a `<module>` (or function) overshoot for a blank line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeOne } from './helpers';

const base = 'import os\n\n\ndef f():\n    x = 1\n    return x\n\n\ndef g():\n    y = 2\n    return y\n';
const goldFixesF = base.replace('return x', 'return x + 1');

const overshoot = (a: Awaited<ReturnType<typeof analyzeOne>>) => a.symbols.overshoot.map((e) => e.symbol);
const undershoot = (a: Awaited<ReturnType<typeof analyzeOne>>) => a.symbols.undershoot.map((e) => e.symbol);

test('a patch adding one blank line between two functions yields no overshoot', async () => {
  const step = goldFixesF.replace('\n\ndef g', '\n\n\ndef g');
  const a = await analyzeOne('m.py', base, step, goldFixesF);
  assert.deepEqual(overshoot(a), []);
  assert.deepEqual(undershoot(a), []);
  assert.equal(a.symbols.jaccard, 1);
  assert.deepEqual(a.files.overshoot, []);
});

test('whitespace-only lines, removed blank lines and blank lines inside another function are no overshoot either', async () => {
  for (const step of [
    goldFixesF.replace('\n\ndef g', '\n    \t\n\ndef g'),
    goldFixesF.replace('import os\n\n\n', 'import os\n\n'),
    goldFixesF.replace('    y = 2\n', '    y = 2\n\n'),
  ]) {
    const a = await analyzeOne('m.py', base, step, goldFixesF);
    assert.deepEqual(overshoot(a), [], JSON.stringify(step));
  }
});

test("gold's blank lines are no undershoot of the step", async () => {
  const gold = goldFixesF.replace('\n\ndef g', '\n\n\ndef g').replace('    y = 2\n', '    y = 2\n\n');
  const a = await analyzeOne('m.py', base, goldFixesF, gold);
  assert.deepEqual(undershoot(a), []);
});

test('a non-blank line in the same places is an overshoot: module level, and inside another function', async () => {
  const comment = await analyzeOne('m.py', base, goldFixesF.replace('\n\ndef g', '\n# note\n\ndef g'), goldFixesF);
  assert.deepEqual(overshoot(comment), ['<module>']);
  const inG = await analyzeOne('m.py', base, goldFixesF.replace('    y = 2\n', '    y = 2\n    y += 0\n'), goldFixesF);
  assert.deepEqual(overshoot(inG), ['g']);
});

test('removed lines belong to the symbol they were in before the patch (a deleted function is its own overshoot)', async () => {
  // Mutation checked: symbolAt on the post-image for removed lines too (names `<module>` here).
  const withoutG = goldFixesF.slice(0, goldFixesF.indexOf('\n\ndef g')) + '\n';
  const a = await analyzeOne('m.py', base, withoutG, goldFixesF);
  assert.deepEqual(overshoot(a), ['g']);
  assert.equal(a.symbols.overshoot[0].kind, 'function');
});

test('added lines belong to the symbol they are in after the patch (a new function is its own overshoot)', async () => {
  // Mutation checked: symbolAt on the pre-image for added lines too (names `<module>` here).
  const a = await analyzeOne('m.py', base, goldFixesF + '\n\ndef h():\n    return 3\n', goldFixesF);
  assert.deepEqual(overshoot(a), ['h']);
});
