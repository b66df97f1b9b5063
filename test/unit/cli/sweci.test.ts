// `chainlens sweci`'s arguments and a bad dataset are refused before anything is loaded or written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';

test('usage errors exit 2: no subcommand, an unknown one, missing options, bad numbers', async () => {
  assert.equal((await runCli(['sweci'])).code, 2);
  assert.match((await runCli(['sweci', 'frobnicate'])).stderr, /unknown subcommand 'frobnicate'/);
  assert.equal((await runCli(['sweci', 'init'])).code, 2);
  const noTask = await runCli(['sweci', 'init', '/nonexistent', '--dir', '/nonexistent/w']);
  assert.equal(noTask.code, 2);
  assert.match(noTask.stderr, /missing required option --task/);
  assert.equal((await runCli(['sweci', 'score'])).code, 2);
  const gamma = await runCli(['sweci', 'score', '.', '--gamma', '0']);
  assert.equal(gamma.code, 2);
  assert.match(gamma.stderr, /--gamma must be a positive number, not '0'/);
  assert.match(
    (await runCli(['sweci', 'init', 'd', '--task', 't', '--dir', 'w', '--limit', 'x'])).stderr,
    /--limit must be a whole number/,
  );
  assert.match(
    (await runCli(['sweci', 'mcp', '--role', 'boss'])).stderr,
    /--role must be architect, programmer or both/,
  );
  assert.equal((await runCli(['sweci', 'run', '--architect', 'true'])).code, 2);
  const help = await runCli(['sweci', 'score', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /EvoScore/);
});

test('a metadata row with missing fields: exit 1 naming the file, line, task and field; no work tree made', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-sweci-cli-'));
  try {
    mkdirSync(join(root, 'ds', 'metadata'), { recursive: true });
    writeFileSync(
      join(root, 'ds', 'metadata', 'default.csv'),
      'task_id,current_sha,target_sha,test_gap\nacme-1,0123abc,,5\nacme-2,0123abc,4567def,3\n',
    );
    const work = join(root, 'work');
    const r = await runCli(['sweci', 'init', join(root, 'ds'), '--task', 'acme-2', '--dir', work]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /default\.csv:2 \(task 'acme-1'\): missing 'target_sha'/);
    assert.equal(existsSync(work), false);
    const missingSplit = await runCli([
      'sweci',
      'init',
      join(root, 'ds'),
      '--split',
      'lite',
      '--task',
      'a',
      '--dir',
      work,
    ]);
    assert.equal(missingSplit.code, 1);
    assert.match(missingSplit.stderr, /metadata\/lite\.csv does not exist/);
    writeFileSync(
      join(root, 'ds', 'metadata', 'default.csv'),
      'task_id,current_sha,target_sha,test_gap\nacme-2,0123abc,4567def,3\n',
    );
    const noArchive = await runCli(['sweci', 'init', join(root, 'ds'), '--task', 'acme-2', '--dir', work]);
    assert.equal(noArchive.code, 1);
    assert.match(noArchive.stderr, /task 'acme-2': its repository archive .*code\.zip does not exist/);
    assert.equal(existsSync(work), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a SWE-CI batch is refused before its run directory is written: unpaired roles, a bad row, an unknown task, a bad choice', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-sweci-batch-cli-'));
  try {
    const ds = join(root, 'ds');
    mkdirSync(join(ds, 'metadata'), { recursive: true });
    writeFileSync(
      join(ds, 'metadata', 'default.csv'),
      'task_id,current_sha,target_sha,test_gap\nacme-1,0123abc,4567def,3\n',
    );
    const runDir = join(root, 'run');
    const roles = ['--architect', 'true', '--programmer', 'true'];
    const unpaired = await runCli([
      'batch',
      ds,
      '--run-dir',
      runDir,
      '--architect',
      'a',
      '--architect',
      'b',
      '--programmer',
      'p',
    ]);
    assert.equal(unpaired.code, 2);
    assert.match(unpaired.stderr, /each agent needs one --architect and one --programmer \(got 2 and 1\)/);
    const twice = await runCli(['batch', ds, '--run-dir', runDir, '--agent', 'x', ...roles, '--agent', 'x', ...roles]);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /agent 'x' is given twice/);
    const unknown = await runCli(['batch', ds, '--run-dir', runDir, '--task', 'nope', ...roles]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /task 'nope' is not in .*default\.csv/);
    const choice = await runCli(['batch', ds, '--run-dir', runDir, '--failed-run', 'maybe', ...roles]);
    assert.equal(choice.code, 2);
    assert.match(choice.stderr, /--failed-run must be one of discard, keep, not 'maybe'/);
    const notDataset = await runCli(['batch', root, '--run-dir', runDir, ...roles]);
    assert.equal(notDataset.code, 1);
    assert.match(notDataset.stderr, /is not a SWE-CI dataset folder \(it has no metadata\/ folder\)/);
    writeFileSync(
      join(ds, 'metadata', 'default.csv'),
      'task_id,current_sha,target_sha,test_gap\nacme-1,zz,4567def,3\n',
    );
    const badRow = await runCli(['batch', ds, '--run-dir', runDir, ...roles]);
    assert.equal(badRow.code, 1);
    assert.match(badRow.stderr, /default\.csv:2 \(task 'acme-1'\)/);
    assert.equal(existsSync(runDir), false);
    const resumeNothing = await runCli(['batch', '--run-dir', runDir, ...roles]);
    assert.equal(resumeNothing.code, 2);
    const badInit = await runCli([
      'sweci',
      'init',
      ds,
      '--task',
      'acme-1',
      '--dir',
      join(root, 'w'),
      '--test-changes',
      'ignore',
    ]);
    assert.equal(badInit.code, 2);
    assert.match(badInit.stderr, /--test-changes must be one of reset, refuse, not 'ignore'/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
