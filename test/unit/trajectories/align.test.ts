// Compare Trajectories aligns two runs by what they did (src/core/trajectories/align.ts): the
// same file viewed or edited, the same command; a step only one run took faces a gap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionKey, alignKeys, alignTrajectories } from '../../../src/core/trajectories/align';
import { loadTrajectoryFile } from '../../../src/infra/trajectories';
import { samples } from './fixtures';

test('the same actions at other step numbers pair up; extra steps face gaps, left side first', () => {
  assert.deepEqual(alignKeys(['ls', 'view a', 'edit a', 'run t', 'submit'], ['view a', 'grep x', 'edit a', 'submit']), [
    [0, null],
    [1, 0],
    [null, 1],
    [2, 2],
    [3, null],
    [4, 3],
  ]);
  // by index this would have paired `ls` with `view a` and `view a` with `grep x`
  assert.deepEqual(alignKeys([], ['a']), [[null, 0]]);
  assert.deepEqual(alignKeys(['a', 'b'], ['c']), [
    [0, null],
    [1, null],
    [null, 0],
  ]);
});

test('a real SWE-agent run against itself with steps dropped: every kept step pairs with itself', async () => {
  const file = await loadTrajectoryFile(samples.sweV1, { thread: 'current' });
  const left = file.trajectories[0];
  const dropped = new Set([3, 4, 9]);
  const right = { ...left, steps: left.steps.filter((s) => !dropped.has(s.index)) };
  const keys = left.steps.map((s) => actionKey(s));
  // the run has steps doing the same thing twice (reproduce.py edited twice): keys are not all distinct
  assert.ok(new Set(keys).size > 3);
  assert.equal(keys[5], 'view src/marshmallow/fields.py');
  assert.equal(keys[6], 'edit src/marshmallow/fields.py');
  const pairs = alignTrajectories(left, right, { left: (p) => p, right: (p) => p });
  const matched = pairs.filter(([a, b]) => a !== null && b !== null);
  assert.equal(matched.length, right.steps.length);
  for (const [a, b] of matched) assert.equal(keys[a!], actionKey(right.steps[b!]));
  assert.deepEqual(
    pairs.filter(([, b]) => b === null).map(([a]) => a),
    [3, 4, 9],
  );
  assert.equal(pairs.length, left.steps.length);
});

test('paths go through each side’s mapping: /testbed/x and /workspace/repo/x are the same file', () => {
  const step = (path: string) =>
    ({
      index: 0,
      actionKind: 'view',
      action: `str_replace_editor view ${path}`,
      filesTouched: [{ path, access: 'view', ranges: [] }],
    }) as never;
  const strip = (root: string) => (p: string) => p.replace(root, '');
  assert.equal(actionKey(step('/testbed/src/a.py'), strip('/testbed/')), 'view src/a.py');
  assert.equal(actionKey(step('/workspace/repo/src/a.py'), strip('/workspace/repo/')), 'view src/a.py');
});
