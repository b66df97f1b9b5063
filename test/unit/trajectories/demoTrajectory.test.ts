// The demo ships a real-format trajectory of the demo agent solving step 1 (the walkthrough opens
// it): mini-swe-agent's format, read by ChainLens like any other, and made by
// demo/tools/build_trajectory.py from the step's recorded patch, so its submission is exactly the
// patch the chain records for the demo agent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrajectoryFile } from '../../../src/infra/trajectories';
import { DEMO_PREDICTIONS, ROOT, demoRepo } from '../../helpers/demoRepo';

const TRAJECTORY = join(ROOT, 'demo', 'trajectories', 'chainlens-demo__invoicekit-101.traj.json');

test("the demo trajectory is mini-swe-agent's format and submits the demo agent's recorded step-1 patch", async () => {
  const file = await loadTrajectoryFile(TRAJECTORY);
  assert.deepEqual(file.problems, []);
  const [t] = file.trajectories;
  assert.equal(t.source.format, 'mini-swe-agent');
  assert.equal(t.instanceId, 'chainlens-demo__invoicekit-101');
  assert.equal(t.exitStatus, 'Submitted');
  assert.ok(
    t.steps.some((s) => s.filesTouched.some((f) => f.path === 'invoicekit/parse.py')),
    'it edits parse.py',
  );
  const recorded = readFileSync(DEMO_PREDICTIONS, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { instance_id: string; model_patch: string })
    .find((p) => p.instance_id === t.instanceId)!;
  assert.equal(t.submission, recorded.model_patch, 'the chain and the trajectory tell the same story');
});

test('build_trajectory.py --check: the shipped file is what the script makes from the built demo repository', () => {
  execFileSync('python3', [join(ROOT, 'demo', 'tools', 'build_trajectory.py'), '--repo', demoRepo(), '--check'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
});
