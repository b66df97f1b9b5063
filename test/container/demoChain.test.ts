// The demo chain through `chainlens eval` against the real Docker engine and the local base image:
// what the README promises a new user sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { DEMO_CHAIN, DEMO_PREDICTIONS, demoRepo, ROOT } from '../helpers/demoRepo';
import { ChainEvaluationSchema } from '../../src/protocol/evaluation';
import { StepReportSchema } from '../../src/protocol/grading';
import { evaluateStep } from '../../src/app/evaluation';

const work = mkdtempSync(join(tmpdir(), 'chainlens-eval-'));

async function evalRun(name: string, mode: string, predictions: string, extra: string[] = []) {
  const report = join(work, `${name}.json`);
  const r = await runCli([
    'eval',
    DEMO_CHAIN,
    '--repo',
    demoRepo(),
    '--dir',
    join(work, name),
    '--mode',
    mode,
    '--predictions',
    predictions,
    '--report',
    report,
    ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return { r, report: ChainEvaluationSchema.parse(JSON.parse(readFileSync(report, 'utf8'))), reportPath: report };
}

test('Oracle with gold patches resolves every step of the demo chain, with SWE-bench report.json beside each log', async () => {
  const { r, report } = await evalRun('oracle-gold', 'oracle', 'gold');
  assert.deepEqual(
    report.steps.map((s) => s.status),
    ['resolved', 'resolved', 'resolved'],
  );
  assert.equal(report.full_chain_resolved, true);
  assert.equal(report.resolved_steps, 3);
  assert.match(r.stdout, /1\s+chainlens-demo__invoicekit-101\s+resolved\s+5\/5\s+22\/22/);
  for (const step of report.steps) {
    assert.ok(existsSync(step.log_path));
    assert.match(readFileSync(step.log_path, 'utf8'), />>>>> Start Test Output/);
    const swe = StepReportSchema.parse(JSON.parse(readFileSync(step.report_path, 'utf8')));
    assert.equal(swe[step.instance_id].resolved, true);
    assert.equal(swe[step.instance_id].patch_successfully_applied, true);
  }
});

test('an undershooting step 1 leaves step 1 unresolved in both modes and makes step 2 a chain error', async () => {
  const oracle = await evalRun('oracle-pred', 'oracle', DEMO_PREDICTIONS);
  const seq = await evalRun('seq-pred', 'seq', DEMO_PREDICTIONS);
  assert.deepEqual(
    oracle.report.steps.map((s) => s.status),
    ['unresolved', 'resolved', 'resolved'],
  );
  assert.deepEqual(
    seq.report.steps.map((s) => s.status),
    ['unresolved', 'unresolved', 'resolved'],
  );
  assert.equal(
    seq.report.steps[0].tests_status.FAIL_TO_PASS.failure.length,
    3,
    'the parentheses cases are left unfixed',
  );
  const c = await runCli(['compare', oracle.reportPath, seq.reportPath, '--json']);
  assert.equal(c.code, 0, c.stderr);
  const cmp = JSON.parse(c.stdout);
  assert.deepEqual(cmp.chainErrors, [2]);
  assert.equal(cmp.positions[1].seqFingerprint, 'left-bug-unfixed');
  assert.equal(cmp.oracle.rate.toFixed(2), '0.67');
  assert.equal(cmp.seq.fullChain, false);
});

test('Run tests on the work tree: F2P fail before the fix and pass after it; hidden tests never touch the work tree', async () => {
  const dir = join(work, 'human');
  assert.equal((await runCli(['checkout', DEMO_CHAIN, '--repo', demoRepo(), '--dir', dir])).code, 0);
  const before = await evaluateStep({ dir, source: 'worktree' });
  assert.equal(before.status, 'unresolved');
  assert.equal(before.tests_status.FAIL_TO_PASS.success.length, 0);
  assert.equal(before.tests_status.PASS_TO_PASS.failure.length, 0);
  execFileSync('git', ['apply', join(ROOT, 'demo/steps/1/gold.patch')], { cwd: dir });
  const after = await evaluateStep({ dir, source: 'worktree' });
  assert.equal(after.status, 'resolved', after.error ?? '');
  assert.equal(
    execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }),
    ' M invoicekit/parse.py\n',
  );
});

test('a step whose recorded patch is empty is not run (SWE-bench "empty patch")', async () => {
  const preds = join(work, 'empty.jsonl');
  writeFileSync(
    preds,
    JSON.stringify({
      instance_id: 'chainlens-demo__invoicekit-101',
      model_name_or_path: 'lazy-agent',
      model_patch: '',
    }) + '\n',
  );
  const { report } = await evalRun('empty', 'seq', preds, ['--steps', '1']);
  assert.equal(report.steps.length, 1);
  assert.equal(report.steps[0].status, 'empty_patch');
  assert.equal(report.steps[0].duration_s, 0);
});

test('an image that already holds the repository is found and used (the ChainSWE/SWE-bench image shape)', async () => {
  const tag = `chainlens-test/demo-testbed:${process.pid}`;
  const ctx = mkdtempSync(join(tmpdir(), 'chainlens-img-'));
  execFileSync('cp', ['-a', demoRepo(), join(ctx, 'testbed')]);
  writeFileSync(join(ctx, 'Dockerfile'), 'FROM chainlens/base:bookworm\nCOPY testbed /testbed\nWORKDIR /testbed\n');
  execFileSync('docker', ['build', '-q', '-t', tag, ctx], { stdio: 'pipe' });
  try {
    const { report } = await evalRun('in-image', 'oracle', 'gold', ['--image', tag, '--steps', '2']);
    assert.equal(report.steps[0].status, 'resolved', report.steps[0].error ?? '');
    assert.match(readFileSync(report.steps[0].log_path, 'utf8'), /\/testbed/);
  } finally {
    execFileSync('docker', ['rmi', '-f', tag], { stdio: 'pipe' });
  }
});

test('a missing image: eval exits 1 naming the image, before cloning or replaying anything', async () => {
  const dir = join(work, 'missing-image');
  const r = await runCli([
    'eval',
    DEMO_CHAIN,
    '--repo',
    demoRepo(),
    '--dir',
    dir,
    '--mode',
    'oracle',
    '--predictions',
    'gold',
    '--image',
    'chainlens-test/does-not-exist:1',
    '--report',
    join(work, 'missing-image.json'),
  ]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /Image chainlens-test\/does-not-exist:1 is not on this machine and could not be pulled/);
  assert.equal(existsSync(dir), false);
  assert.equal(existsSync(join(work, 'missing-image.json')), false);
});

test('no reachable engine: eval stops before writing anything and says how to fix it', async () => {
  const saved = process.env.DOCKER_HOST;
  process.env.DOCKER_HOST = 'tcp://127.0.0.1:9';
  try {
    const dir = join(work, 'no-engine');
    const r = await runCli([
      'eval',
      DEMO_CHAIN,
      '--repo',
      demoRepo(),
      '--dir',
      dir,
      '--mode',
      'seq',
      '--predictions',
      'gold',
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /DOCKER_HOST|Docker/);
    assert.ok(!existsSync(dir));
  } finally {
    if (saved === undefined) delete process.env.DOCKER_HOST;
    else process.env.DOCKER_HOST = saved;
  }
});
