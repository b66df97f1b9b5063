// Damaged state and hostile input that used to exit 70 or hang (issue: "Bad input"): each is a
// one-line error naming the file and field, exit 1 (2 for usage), and nothing written: the run's
// state folder and the directory of the inputs are the same before and after.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../helpers/cli';
import { snapshotDir } from '../../helpers/dirSnapshot';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { openWorkspace } from '../../../src/infra/runs/workspace';

let tiny: TinyChain;
const STACK = /^\s+at .+[(:]\d+|internal error|node:internal/m;

before(() => {
  tiny = makeTinyChain();
});
after(() => tiny.cleanup());

/** Runs the command and checks exit code, message, no stack trace, and that `watched` did not change. */
async function refused(
  args: string[],
  code: 1 | 2,
  message: RegExp,
  watched: string[] = [tiny.root],
): Promise<CliResult> {
  const before = watched.map((d) => snapshotDir(d));
  const r = await runCli(args, tiny.root);
  const output = r.stdout + r.stderr;
  assert.equal(r.code, code, `exit code of chainlens ${args.join(' ')}:\n${output}`);
  assert.match(output, message);
  assert.doesNotMatch(output, STACK);
  watched.forEach((d, i) => assert.deepEqual(snapshotDir(d), before[i], `chainlens ${args.join(' ')} changed ${d}`));
  return r;
}

async function checkout(name: string): Promise<{ dir: string; stateDir: string; runFile: string }> {
  const dir = join(tiny.root, name);
  const r = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir]);
  assert.equal(r.code, 0, r.stderr);
  const ws = await openWorkspace(dir);
  return { dir, stateDir: ws.store.root, runFile: join(ws.store.root, 'runs', `${ws.store.currentRunId()}.json`) };
}

test('a run file whose currentStep is not a step of the run: status, status --json and submit name the file and currentStep', async () => {
  const { dir, stateDir, runFile } = await checkout('w-step99');
  const state = JSON.parse(readFileSync(runFile, 'utf8'));
  writeFileSync(runFile, JSON.stringify({ ...state, currentStep: 99 }, null, 2) + '\n');
  for (const args of [['status'], ['status', '--json'], ['submit']])
    await refused([...args, '--dir', dir], 1, /\.json is damaged: currentStep 99 is not a step of the run/, [
      dir,
      stateDir,
    ]);
});

test('a journal with an operation ChainLens does not know is refused by name and kept', async () => {
  const { dir, stateDir } = await checkout('w-journal');
  const journal = join(stateDir, 'journal.json');
  writeFileSync(journal, JSON.stringify({ op: 'teleport', runId: 'x', step: 1, pid: 1, startedAt: 'now' }) + '\n');
  await refused(['status', '--dir', dir], 1, /journal .*journal\.json: op: "teleport" is not an operation/, [
    dir,
    stateDir,
  ]);
  await refused(['submit', '--dir', dir], 1, /journal\.json: op: "teleport"/, [dir, stateDir]);
  assert.ok(existsSync(journal));
});

test('validate on a FIFO and on /dev/zero: refused at once as not a regular file (no hang, no growth)', () => {
  const fifo = join(tiny.root, 'chain.fifo');
  execFileSync('mkfifo', [fifo]);
  for (const path of [fifo, '/dev/zero']) {
    // A separate process with a timeout: a hang fails the test instead of stalling the suite.
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(__dirname, '../../../src/cli/bin.ts'), 'validate', path],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(r.signal, null, `validate ${path} hung`);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a regular file`));
  }
});
