// `chainlens batch` killed with SIGKILL at random moments, 10 times, then run to the end: the
// records equal those of a run that was never interrupted (status, resolved flag, test lists),
// no record written before a kill is ever written again (no step runs twice once recorded), no
// container of any of those processes is left on the engine, and nothing leaks out of the run
// directory (the work trees' run state stays inside it). Also the bad inputs that need an
// engine: an engine that is down, an image that is missing: a clear error, nothing written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli, runBuiltCli } from '../helpers/builtCli';
import { makeTinyChain, type TinyChain } from '../helpers/tinyChain';
import { batchVerdicts, keepsEarlierRecords, seededRandom, testSeed } from '../helpers/batchRecords';

let tiny: TinyChain;
let root: string;
let dataDir: string;

before(() => {
  tiny = makeTinyChain();
  root = mkdtempSync(join(tmpdir(), 'chainlens-batch-resume-'));
  dataDir = join(root, 'user-data');
});
after(() => {
  tiny.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const env = () => ({ ...process.env, CHAINLENS_DATA: dataDir });

/** The first record whose verdict differs from the uninterrupted run's. */
function wrongRecord(runDir: string, expected: Record<string, unknown>): string | undefined {
  const now = batchVerdicts(runDir);
  return Object.keys(now).find((rel) => JSON.stringify(now[rel]) !== JSON.stringify(expected[rel]));
}

/** Runs the batch; sends it `signal` `delayMs` after its `afterSteps`-th finished step (or at once for 0). */
function runKilled(
  args: string[],
  afterSteps: number,
  delayMs: number,
  signal: NodeJS.Signals,
): Promise<{ pid: number; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli(), ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let steps = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => (timer ??= setTimeout(() => child.kill(signal), delayMs));
    if (afterSteps === 0) arm();
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.includes('"event":"step"') && ++steps >= afterSteps) arm();
      }
    });
    child.stderr.resume();
    child.on('close', (_code, ended) => {
      clearTimeout(timer);
      resolve({ pid: child.pid!, killed: ended !== null });
    });
  });
}

const newBatch = (runDir: string) => [
  'batch',
  tiny.chainFile,
  '--run-dir',
  runDir,
  '--repo',
  tiny.repo,
  '--predictions',
  'gold',
  '--mode',
  'oracle,seq',
  '--workers',
  '2',
  '--json',
];

// SIGTERM: ChainLens removes its containers on the way out; the steps they ran are cut short by
// us, not failed by their tests, so they have no record and run again (docs/run-state.md, "Signals").
test('SIGKILL and SIGTERM 10 times each at random moments: resumed records equal an uninterrupted run, none written twice, nothing left', async () => {
  const reference = join(root, 'reference');
  const whole = runBuiltCli(newBatch(reference), { CHAINLENS_DATA: dataDir });
  assert.equal(whole.code, 0, whole.stderr);
  const expected = batchVerdicts(reference);
  assert.equal(Object.keys(expected).length, 6, 'three steps, two modes, one source');

  const seed = testSeed();
  const rand = seededRandom(seed);
  const runDir = join(root, 'killed');
  const pids: number[] = [];
  const seen = new Map<string, string>();
  for (let kill = 0; kill < 20; kill++) {
    // A batch killed before it wrote its manifest has nothing to resume from: the person runs the
    // same full command again; once the manifest is there, `--run-dir` alone resumes it.
    const started = existsSync(join(runDir, 'manifest.json'));
    const args = started ? ['batch', '--run-dir', runDir, '--workers', '2', '--json'] : newBatch(runDir);
    const signal = kill % 2 === 0 ? 'SIGKILL' : 'SIGTERM';
    const r = await runKilled(args, Math.floor(rand() * 2), Math.floor(rand() * 4000), signal);
    pids.push(r.pid);
    // Every record seen so far is still there, byte for byte: a recorded step never runs again.
    const rewritten = keepsEarlierRecords(runDir, seen);
    assert.equal(rewritten, undefined, `seed ${seed}: ${rewritten} was rewritten after kill ${kill} (${signal})`);
    const wrong = wrongRecord(runDir, expected);
    assert.equal(
      wrong,
      undefined,
      `seed ${seed}: after kill ${kill} (${signal}) ${wrong} differs from the uninterrupted run`,
    );
  }
  const last = runBuiltCli(
    existsSync(join(runDir, 'manifest.json')) ? ['batch', '--run-dir', runDir, '--workers', '2'] : newBatch(runDir),
    { CHAINLENS_DATA: dataDir },
  );
  assert.equal(last.code, 0, `seed ${seed}: ${last.stderr}`);
  assert.match(last.stdout, /6\/6 step evaluations recorded/);
  const rewritten = keepsEarlierRecords(runDir, seen);
  assert.equal(rewritten, undefined, `seed ${seed}: ${rewritten} was rewritten`);
  assert.deepEqual(batchVerdicts(runDir), expected, `seed ${seed}`);

  // The work trees and their state lived in the run directory, and are gone; the user's data
  // directory never saw them.
  assert.deepEqual(readdirSync(runDir).sort(), ['logs', 'manifest.json', 'records']);
  assert.ok(!existsSync(join(dataDir, 'worktrees')) || readdirSync(join(dataDir, 'worktrees')).length === 0);

  const left = execFileSync(
    'docker',
    ['ps', '-a', '--filter', 'label=chainlens.managed=true', '--format', '{{.Label "chainlens.pid"}}'],
    {
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((pid) => pids.includes(Number(pid)));
  assert.deepEqual(left, [], `seed ${seed}: containers of killed batches left behind`);
});

test('an engine that is down: a clear error naming it, exit 1, no run directory', () => {
  const runDir = join(root, 'no-engine');
  const r = runBuiltCli(newBatch(runDir), { CHAINLENS_DATA: dataDir, DOCKER_HOST: 'tcp://127.0.0.1:9' });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /Cannot reach the Docker engine at tcp:\/\/127\.0\.0\.1:9/);
  assert.equal(existsSync(runDir), false);
});

test('an image that is missing: the error names the image and the chain, no run directory', () => {
  const chainFile = join(root, 'missing-image.json');
  writeFileSync(chainFile, JSON.stringify({ ...tiny.raw, docker_image: `chainlens-test/missing-${process.pid}:none` }));
  const runDir = join(root, 'no-image');
  const args = newBatch(runDir);
  args[1] = chainFile;
  const r = runBuiltCli(args, { CHAINLENS_DATA: dataDir });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`chainlens-test/missing-${process.pid}:none.*missing-image\\.json`));
  assert.equal(existsSync(runDir), false);
});
