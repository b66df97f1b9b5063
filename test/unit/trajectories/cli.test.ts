import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { TrajectoryFileSchema, TrajectoryStepSchema } from '../../../src/protocol/trajectory';
import { read, samples } from './fixtures';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['trajectory', ...args], {
    out: (t) => (out += t + '\n'),
    err: (t) => (err += t + '\n'),
    cwd: process.cwd(),
  });
  return { code, out, err };
}

test('chainlens trajectory <file>: a table of steps with kind, action, exit code and files', async () => {
  const r = await cli(samples.sweV0);
  assert.equal(r.code, 0);
  assert.equal(r.err, '');
  const lines = r.out.split('\n');
  assert.match(lines[0], /^swe-agent v0 · pydicom__pydicom-1458 · exit submitted · 12 steps · \$1\.27$/);
  assert.match(lines[1], /^step\s+kind\s+action\s+exit\s+files$/);
  assert.match(r.out, /\n8\s+edit\s+edit 287:296 …\s+pydicom\/pixel_data_handlers\/numpy_handler\.py:287-296\n/);
  assert.match(r.out, /\nsubmission: 1 file \(\+3 -2\): pydicom\/pixel_data_handlers\/numpy_handler\.py\n/);

  const mini = await cli(samples.miniLegacy);
  assert.match(mini.out, /\n7\s+run\s+python3 -c "from tests\.missing_colon import division; print\(division\(…\s+1\n/);
});

test('--step N shows the step in full; --json gives the normalised model', async () => {
  const step = await cli(samples.sweV0, '--step', '8');
  assert.equal(step.code, 0);
  assert.match(step.out, /^step 8 · edit \(`edit 287:296` replaces lines\)\n/);
  assert.match(
    step.out,
    /--- patch so far \(reconstructed\)\ndiff --git a\/pydicom\/pixel_data_handlers\/numpy_handler\.py/,
  );

  const json = await cli(samples.sweV1, '--json');
  const file = TrajectoryFileSchema.parse(JSON.parse(json.out));
  assert.equal(file.trajectories[0].steps.length, 11);
  const one = TrajectoryStepSchema.parse(JSON.parse((await cli(samples.sweV1, '--step', '5', '--json')).out));
  assert.equal(one.tool?.name, 'open');
});

test('--instance picks one trajectory of an output.jsonl; an unknown id lists the ones there are', async () => {
  const list = await cli(samples.ohV0);
  assert.match(list.out, /2 trajectories \(openhands v0-events\); pick one with --instance <id>/);
  const one = await cli(samples.ohV0, '--instance', 'ponylang__ponyc-4593');
  assert.match(
    one.out,
    /^openhands v0-events · ponylang__ponyc-4593 · model openai\/openrouter-llama-4-maverick · exit finished · 33 steps/,
  );
  const missing = await cli(samples.ohV0, '--instance', 'nope');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no instance 'nope'.*\n {2}instances: ponylang__ponyc-4595, ponylang__ponyc-4593/);
});

test('problems go to stderr with file and position; exit 1 only when nothing could be read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-cli-'));
  try {
    const cut = join(dir, 'cut.traj');
    const text = read(samples.sweV0);
    writeFileSync(cut, text.slice(0, Math.floor(text.length * 0.2)));
    const partial = await cli(cut);
    assert.equal(partial.code, 0);
    assert.match(
      partial.err,
      new RegExp(
        `^${cut.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: error: the JSON ends early \\(inside \\$\\.trajectory\\[\\d+\\](\\.\\w+)?\\); kept what came before`,
      ),
    );

    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"a": [1, 2');
    const nothing = await cli(junk);
    assert.equal(nothing.code, 1);
    assert.match(nothing.err, /junk\.json:1:1: error: not a trajectory format ChainLens knows/);
    assert.match(nothing.err, /nothing could be read/);

    const usage = await cli(samples.sweV0, '--step', 'x');
    assert.equal(usage.code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
