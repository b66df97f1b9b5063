// One story of the demo's chain error everywhere a new user reads it: the demo agent's step 1 is a
// partial fix inside the same function as gold (no overshoot or undershoot mark, an INPUT GATING
// drift suggestion), so step 2 under Seq fails with an empty trace. The analysis is run for
// real; the walkthrough, demo/README.md and the report's empty-trace line must say the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMPTY_TRACE } from '../../../src/core/batch/render/cells';
import { runCli } from '../../helpers/cli';
import { ROOT, demoRepo } from '../../helpers/demoRepo';

const read = (...p: string[]) => readFileSync(join(ROOT, ...p), 'utf8');

test("the demo's chain error: the analysis, demo/README.md, the walkthrough and the report agree", async () => {
  const r = await runCli([
    'analyze',
    '--patch',
    join(ROOT, 'demo/steps/1/predicted.patch'),
    '--gold',
    join(ROOT, 'demo/steps/1/gold.patch'),
    '--repo',
    demoRepo(),
    '--json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const analysis = JSON.parse(r.stdout) as {
    symbols: { overshoot: unknown[]; undershoot: unknown[] };
    drift: { symbol: string; label: string }[];
  };
  assert.deepEqual([analysis.symbols.overshoot, analysis.symbols.undershoot], [[], []]);
  assert.ok(analysis.drift.some((d) => d.symbol === 'parse_amount' && d.label === 'INPUT GATING'));

  const readme = read('demo', 'README.md');
  assert.doesNotMatch(readme, /step 1 undershoots/, 'step 1 has no undershoot mark: do not say it undershoots');
  assert.match(readme, /partial fix/);
  assert.match(readme, /INPUT GATING/);
  const walkthrough = read('media', 'walkthrough', 'trajectory.md');
  assert.match(walkthrough, /partial fix inside the same function as gold/);
  assert.match(walkthrough, /INPUT GATING/);
  assert.match(walkthrough, /chain error/);
  assert.match(EMPTY_TRACE, /changed the same symbols as gold, differently inside them \(a partial fix/);
});
