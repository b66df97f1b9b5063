// `chainlens eval` says with its exit code whether every step was evaluated: a step the
// environment kept from running (here an image with no shell at all) is recorded in the report
// as an environment error, and the command exits 1 instead of 0 after writing that report.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { makeTinyChain, type TinyChain } from '../helpers/tinyChain';
import { ChainEvaluationSchema } from '../../src/protocol/evaluation';

/** An image with no files: no container of it can run a command. */
const EMPTY_IMAGE = `chainlens-test/empty:${process.pid}`;
let tiny: TinyChain;

before(() => {
  tiny = makeTinyChain();
  execFileSync('docker', ['build', '-q', '-t', EMPTY_IMAGE, '-'], {
    input: `FROM scratch\nLABEL chainlens.test.empty="${process.pid}"\n`,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
});

after(() => {
  spawnSync('docker', ['rmi', '-f', EMPTY_IMAGE], { stdio: 'ignore' });
  tiny.cleanup();
});

test('a step that could not be evaluated: the report records an environment error and eval exits 1', async () => {
  const report = join(tiny.root, 'report.json');
  const r = await runCli([
    'eval',
    tiny.chainFile,
    '--repo',
    tiny.repo,
    '--dir',
    join(tiny.root, 'work'),
    '--mode',
    'seq',
    '--predictions',
    'gold',
    '--steps',
    '1',
    '--image',
    EMPTY_IMAGE,
    '--report',
    report,
  ]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /1 step\(s\) could not be evaluated: step 1: .*chainlens-test\/empty/);
  const written = ChainEvaluationSchema.parse(JSON.parse(readFileSync(report, 'utf8')));
  assert.equal(written.steps[0].error_kind, 'environment');
  const left = execFileSync('docker', ['ps', '-aq', '--filter', `ancestor=${EMPTY_IMAGE}`], { encoding: 'utf8' });
  assert.equal(left.trim(), '', 'no container of the failed evaluation is left');
});
