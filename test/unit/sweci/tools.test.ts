import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSweciCall, sweciToolsFor } from '../../../src/core/sweci/tools';
import { evoScoreByGammaChart, passingTestsChart } from '../../../src/core/sweci';
import type { SweciTaskScore } from '../../../src/protocol/sweci';

test('each role sees its own tools; a call outside the role or with bad arguments is refused', () => {
  assert.deepEqual(
    sweciToolsFor('architect').map((t) => t.name),
    ['get_gap', 'write_requirement'],
  );
  assert.deepEqual(
    sweciToolsFor('programmer').map((t) => t.name),
    ['get_requirement', 'submit_iteration'],
  );
  assert.equal(sweciToolsFor('both').length, 4);
  assert.throws(() => checkSweciCall('architect', 'submit_iteration', {}), /unknown tool 'submit_iteration'/);
  assert.throws(
    () => checkSweciCall('both', 'write_requirement', {}),
    /bad arguments for write_requirement: 'requirement'/,
  );
  assert.throws(() => checkSweciCall('both', 'submit_iteration', { iteration: 0 }), /'iteration'/);
  assert.throws(() => checkSweciCall('both', 'get_gap', { extra: 1 }), /bad arguments for get_gap/);
  assert.deepEqual(checkSweciCall('both', 'submit_iteration', { iteration: 2 }).args, { iteration: 2 });
});

const score: SweciTaskScore = {
  taskId: 'calc<1>',
  runId: 'seq-1',
  p0: 2,
  pStar: 6,
  limit: 4,
  counts: [3, 3, 5, 6],
  normalizedChanges: [0.25, 0.25, 0.75, 1],
  evoScores: [0.8, 1, 1.2].map((gamma) => ({ gamma, evoScore: gamma / 2 })),
  evoScore: 0.5,
  gamma: 1,
  zeroRegression: false,
  countNeverDrops: true,
  solved: true,
  regressions: [{ iteration: 2, tests: ['t::sub'] }],
  stopped: 'gap-closed',
};

test('plots: passing tests per iteration from the base, with p0 and p* lines; EvoScore by γ per task', () => {
  const passing = passingTestsChart(score);
  assert.match(passing, /^<svg/);
  assert.match(passing, /p0 = 2/);
  assert.match(passing, /p\* = 6/);
  assert.match(passing, /base: 2 passing/);
  assert.match(passing, /iteration 4: 6 passing/);
  assert.match(passing, /calc&#60;1&#62;/); // task ids are escaped
  const byGamma = evoScoreByGammaChart([score]);
  assert.match(byGamma, /γ = 1.2: 0.6000/);
  assert.equal((byGamma.match(/data-key="seq-1:/g) ?? []).length, 3);
});
