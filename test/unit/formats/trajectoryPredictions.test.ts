import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isTrajectoryFile, predictionsFromTrajectory } from '../../../src/core/formats/trajectoryPredictions';
import { loadPredictions } from '../../../src/core/formats/predictions';
import { formatFile } from '../../helpers/formats';

test("a SWE-agent trajectory authors its instance's step with its final submission (the same patch as its predictions line)", () => {
  const name = formatFile('sweagent_v0_gpt4__pydicom__pydicom-1458.traj');
  const text = readFileSync(name, 'utf8');
  assert.equal(isTrajectoryFile(name, text), true);
  const fromTraj = predictionsFromTrajectory('/runs/pydicom__pydicom-1458.traj', text).get('pydicom__pydicom-1458');
  const fromPreds = loadPredictions(
    'preds.jsonl',
    readFileSync(formatFile('sweagent_all_preds__pydicom__pydicom-1458.jsonl'), 'utf8'),
  ).get('pydicom__pydicom-1458');
  assert.ok(fromTraj?.patch);
  assert.equal(fromTraj.patch.trim(), fromPreds?.patch?.trim());
});

test('predictions files are not mistaken for trajectories', () => {
  const name = formatFile('sweagent_all_preds__pydicom__pydicom-1458.jsonl');
  assert.equal(isTrajectoryFile(name, readFileSync(name, 'utf8')), false);
  const dict = formatFile('minisweagent_preds_example.json');
  assert.equal(isTrajectoryFile(dict, readFileSync(dict, 'utf8')), false);
});

test('a trajectory that does not say its instance, in a file not named after it, is a clear error', () => {
  const text = readFileSync(formatFile('minisweagent_legacy_list_format.traj.json'), 'utf8');
  assert.throws(() => predictionsFromTrajectory('/tmp/run.traj.json', text), /does not say which instance it solved/);
});
