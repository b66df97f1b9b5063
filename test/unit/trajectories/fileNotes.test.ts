// What a trajectory file says about itself: the instance id its name carries, a predictions file
// named as such, and a file nothing could be read from (the viewer fails with this text too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { instanceIdFromFileName } from '../../../src/core/trajectories';
import { nothingRead, predictionsNote } from '../../../src/core/trajectories/present/fileNotes';
import { loadTrajectoryFile } from '../../../src/infra/trajectories';
import { samples } from './fixtures';

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['trajectory', ...args], {
    out: (t) => (out += t + '\n'),
    err: (t) => (err += t + '\n'),
    cwd: process.cwd(),
  });
  return { code, out, err };
}

test('SWE-agent issue runs: `swe-agent__test-repo-i1.traj` is instance swe-agent__test-repo-i1', async () => {
  assert.equal(instanceIdFromFileName('runs/swe-agent__test-repo-i1.traj'), 'swe-agent__test-repo-i1');
  assert.equal(instanceIdFromFileName('pydicom__pydicom-1458.traj'), 'pydicom__pydicom-1458');
  // SWE-agent's id of a local or hashed repository carries no instance
  assert.equal(instanceIdFromFileName('6e44b9__sweagenttestrepo-1c2844.traj'), null);
  // The demonstration records no id of its own: the name is where the id comes from.
  const dir = mkdtempSync(join(tmpdir(), 'traj-name-'));
  const file = join(dir, 'swe-agent__test-repo-i1.traj');
  copyFileSync(samples.sweDemo, file);
  const r = await cli([file]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out.split('\n')[0], /^swe-agent v1 · swe-agent__test-repo-i1 · 5 steps$/);
});

test('a predictions file says what it is; a file nothing was read from says so', async () => {
  for (const path of [samples.miniPreds, samples.swePreds]) {
    const f = await loadTrajectoryFile(path, { thread: 'current' });
    assert.match(
      predictionsNote(f.trajectories[0], 'preds') ?? '',
      /^preds is a predictions file \(preds-jsonl?\): it holds each instance's submitted patch, not the agent's steps/,
    );
    assert.equal(nothingRead(f, 'preds'), undefined);
  }
  const traj = await loadTrajectoryFile(samples.sweV1, { thread: 'current' });
  assert.equal(predictionsNote(traj.trajectories[0], 'x'), undefined);
  const dir = mkdtempSync(join(tmpdir(), 'traj-empty-'));
  writeFileSync(join(dir, 'traj_x.json'), '{"id": "x", "events": "not a list"}');
  const empty = await loadTrajectoryFile(join(dir, 'traj_x.json'), { thread: 'current' });
  assert.equal(nothingRead(empty, 'traj_x.json'), 'nothing could be read from traj_x.json (no steps, no submission)');
});
