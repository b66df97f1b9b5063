// The culprit search's decisions on patch texts (the container test runs them in Docker): which
// trials it makes and what it names, for a state that is solvable, one that gives no verdict,
// and one poisoned by a planted hunk among several.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchCulprits, type EarlierStep } from '../../../src/core/batch';
import { joinHunks, splitHunks } from '../../../src/core/patch';

const section = (file: string, hunks: string[]) =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n` + hunks.join('');
const hunk = (at: number, from: string, to: string) => `@@ -${at},1 +${at},1 @@\n-${from}\n+${to}\n`;

const gold1 = section('a.py', [hunk(1, 'x = 1', 'x = 2'), hunk(20, 'y = 1', 'y = 2')]);
// The solver: gold's first hunk, not its second (undershoot), and a planted hunk in b.py.
const rec1 = section('a.py', [hunk(1, 'x = 1', 'x = 2')]) + section('b.py', [hunk(5, 'z = 1', 'z = 9')]);

test('hunks split and join back byte for byte; a subset keeps one header per file', () => {
  const hs = splitHunks(rec1);
  assert.deepEqual(
    hs.map((h) => h.id),
    ['a.py#1', 'b.py#1'],
  );
  assert.equal(joinHunks(hs), rec1);
  assert.equal(joinHunks(splitHunks(gold1).slice(1)), section('a.py', [hunk(20, 'y = 1', 'y = 2')]));
});

test('gold passing on the Seq state: solvable, one trial; no verdict: inconclusive', async () => {
  const steps: EarlierStep[] = [{ position: 1, order: 1, recorded: rec1, gold: gold1 }];
  const solvable = await searchCulprits(steps, async () => 'resolved');
  assert.deepEqual(solvable, { verdict: 'solvable', culprits: [], trials: [{ change: 'none', outcome: 'resolved' }] });
  const none = await searchCulprits(steps, async () => 'error');
  assert.equal(none.verdict, 'inconclusive');
});

test('a planted overshoot hunk is named, and neither the right hunk nor a missing gold hunk that does not matter', async () => {
  const steps: EarlierStep[] = [
    { position: 1, order: 1, recorded: rec1, gold: gold1 },
    {
      position: 2,
      order: 2,
      recorded: section('c.py', [hunk(3, 'w = 1', 'w = 2')]),
      gold: section('c.py', [hunk(3, 'w = 1', 'w = 2')]),
    },
  ];
  // Gold k passes exactly when no patch sets z = 9.
  const tried: string[][] = [];
  const found = await searchCulprits(steps, async (patches) => {
    tried.push([...patches]);
    return patches.some((p) => p.includes('+z = 9')) ? 'unresolved' : 'resolved';
  });
  assert.equal(found.verdict, 'poisoned');
  assert.deepEqual(found.culprits, [
    { position: 1, order: 1, hunks: [{ kind: 'overshoot', hunk: 'b.py#1', file: 'b.py', header: '@@ -5,1 +5,1 @@' }] },
  ]);
  // Seq state, step 1 gold, step 1 without b.py#1, step 1 with gold a.py#2, step 2 gold.
  assert.deepEqual(
    found.trials.map((t) => `${t.change}: ${t.outcome}`),
    [
      'none: unresolved',
      'step 1: gold: resolved',
      'step 1: without b.py#1: resolved',
      'step 1: with gold a.py#2: unresolved',
      'step 2: gold: unresolved',
    ],
  );
  // The gold hunk is added under the recorded patch's a.py header, beside its own a.py hunk.
  assert.equal(
    tried[3][0],
    section('a.py', [hunk(1, 'x = 1', 'x = 2'), hunk(20, 'y = 1', 'y = 2')]) +
      section('b.py', [hunk(5, 'z = 1', 'z = 9')]),
  );
});
