// `npm start` prepares everything demo/study.json needs (scripts/prepare-demo.sh): the study's
// repository (../.cache/demo-repo) exists afterwards, so `study validate` and `study report`
// work on the demo study, and its empty report says what to do instead of drawing empty charts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_STUDY } from '../../../src/core/study/reportView';
import { runCli } from '../../helpers/cli';
import { ROOT } from '../../helpers/demoRepo';

test('prepare-demo.sh builds the workspace and the demo study repository; study report on it says what to do', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'chainlens-prepare-demo-'));
  try {
    const workspace = join(tmp, 'demo-workspace');
    execFileSync('bash', [join(ROOT, 'scripts', 'prepare-demo.sh'), workspace], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const name of ['invoicekit.chain.json', 'demo-agent.predictions.jsonl', 'demo-agent.traj.json'])
      assert.ok(existsSync(join(workspace, name)), `${name} beside the sources`);
    assert.ok(existsSync(join(ROOT, '.cache', 'demo-repo', '.git')), 'the repository demo/study.json names');
    const studyFile = join(ROOT, 'demo', 'study.json');
    const valid = await runCli(['study', 'validate', studyFile]);
    assert.equal(valid.code, 0, valid.stderr);
    const report = await runCli(['study', 'report', studyFile]);
    assert.equal(report.code, 0, report.stderr);
    assert.ok(report.stdout.includes(EMPTY_STUDY), report.stdout);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
