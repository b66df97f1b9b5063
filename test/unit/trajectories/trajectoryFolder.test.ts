// A folder of agent runs as a list: instance, exit status, steps, cost, and resolved from a
// SWE-bench report beside them (src/core/trajectories/folderRows.ts, src/infra/trajectories/trajectoryFolder.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeRow, resolvedFromReport } from '../../../src/core/trajectories/folderRows';
import { readTrajectoryFolder } from '../../../src/infra/trajectories/trajectoryFolder';
import { samples } from './fixtures';

test('report shapes: the harness run report, per-instance report.json, older results.json', () => {
  assert.deepEqual(
    [...resolvedFromReport({ resolved_ids: ['a'], unresolved_ids: ['b'], error_ids: ['c'] })],
    [
      ['b', false],
      ['c', false],
      ['a', true],
    ],
  );
  assert.deepEqual([...resolvedFromReport({ 'x__y-1': { resolved: true, tests_status: {} } })], [['x__y-1', true]]);
  assert.deepEqual([...resolvedFromReport({ resolved: ['a'] })], [['a', true]]);
  assert.equal(resolvedFromReport([1, 2]).size, 0);
  assert.equal(resolvedFromReport({ name: 'package' }).size, 0);
});

test('a folder of SWE-agent runs, one per instance folder, with the evaluation report beside them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-traj-folder-'));
  try {
    mkdirSync(join(dir, 'pydicom__pydicom-1458'));
    copyFileSync(samples.sweV0, join(dir, 'pydicom__pydicom-1458', 'pydicom__pydicom-1458.traj'));
    mkdirSync(join(dir, 'marshmallow-code__marshmallow-1867'));
    copyFileSync(
      samples.sweV1,
      join(dir, 'marshmallow-code__marshmallow-1867', 'marshmallow-code__marshmallow-1867.traj'),
    );
    writeFileSync(join(dir, 'broken.traj'), '{"trajectory": [');
    writeFileSync(join(dir, 'package.json'), '{"name": "not a report"}');
    writeFileSync(
      join(dir, 'gpt4.run1.json'),
      JSON.stringify({
        resolved_ids: ['pydicom__pydicom-1458'],
        unresolved_ids: ['marshmallow-code__marshmallow-1867'],
      }),
    );
    const folder = await readTrajectoryFolder(dir, { onFile: () => {} });
    assert.deepEqual(folder.reports, [join(dir, 'gpt4.run1.json')]);
    assert.deepEqual(
      folder.rows.map((r) => [r.instance, r.exitStatus, r.steps, r.resolved]),
      [
        ['broken.traj', null, 0, null],
        ['marshmallow-code__marshmallow-1867', 'submitted', folder.rows[1].steps, false],
        ['pydicom__pydicom-1458', 'submitted', 12, true],
      ],
    );
    assert.ok(folder.rows[1].steps > 0);
    assert.ok(folder.rows[0].problems > 0, 'the unreadable file is listed with its problem');
    assert.equal(describeRow(folder.rows[2]), 'submitted · 12 steps · $1.27 · resolved');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a folder of OpenHands and mini-swe-agent output: every format the viewer reads, one row per instance', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-traj-folder-'));
  try {
    copyFileSync(samples.ohV0, join(dir, 'output.jsonl'));
    copyFileSync(samples.ohV1, join(dir, 'events.jsonl'));
    copyFileSync(samples.miniLegacy, join(dir, 'minisweagent_legacy_list_format.traj.json'));
    // SWE-agent's all_preds.jsonl beside its run (listed once, as the run), and mini-swe-agent's
    // preds.json of an instance with no run here (listed, as predictions)
    mkdirSync(join(dir, 'pydicom__pydicom-1458'));
    copyFileSync(samples.sweV0, join(dir, 'pydicom__pydicom-1458', 'pydicom__pydicom-1458.traj'));
    copyFileSync(samples.swePreds, join(dir, 'all_preds.jsonl'));
    copyFileSync(samples.miniPreds, join(dir, 'preds.json'));
    // JSONL and JSON that are not trajectories are not listed
    writeFileSync(join(dir, 'labels.jsonl'), '{"chain": "c", "step": 1}\n');
    writeFileSync(join(dir, 'config.json'), '{"name": "x"}');
    const folder = await readTrajectoryFolder(dir);
    assert.deepEqual(
      folder.rows.map((r) => `${r.instance} · ${r.format} · ${r.index} · ${r.steps}`),
      [
        'events.jsonl · openhands v1-events · 0 · 7',
        'minisweagent_legacy_list_format.traj.json · mini-swe-agent legacy-list · 0 · 10',
        'ponylang__ponyc-4593 · openhands v0-events · 1 · 33',
        'ponylang__ponyc-4595 · openhands v0-events · 0 · 23',
        'pydicom__pydicom-1458 · swe-agent v0 · 0 · 12',
        'swe-agent__test-repo-1 · predictions preds-json · 0 · 0',
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
