// `chainlens batch --engine swarm` on a real single-node swarm of the shared engine: the demo
// chain's records equal those of the local engine (verdicts and test lists); a batch killed with
// SIGKILL and SIGTERM at 10 random moments each, then resumed, records what the local engine
// records (a step cut short by SIGTERM has no record), never rewrites a record, and leaves no
// service, config or container of the killed processes; SIGTERM
// removes the process's own services and configs at once; and an engine outside swarm mode
// gives a clear error naming `docker swarm init`, with nothing written.
//
// The swarm is initialised here only if the engine is not in swarm mode, and left again in
// `after` only then. Other tests use the engine at the same time: nothing here touches objects
// that this file's processes did not create.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { builtCli, runBuiltCli } from '../helpers/builtCli';
import { DEMO_CHAIN, DEMO_PREDICTIONS, demoRepo } from '../helpers/demoRepo';
import {
  batchErrors,
  batchVerdicts as verdicts,
  keepsEarlierRecords,
  seededRandom,
  testSeed,
} from '../helpers/batchRecords';

const docker = new Docker();
let root: string;
let dataDir: string;
let initialised = false;
let swarmAtStart = 'inactive';

const swarmState = () =>
  execFileSync('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}'], { encoding: 'utf8' }).trim();

before(() => {
  root = mkdtempSync(join(tmpdir(), 'chainlens-swarm-batch-'));
  dataDir = join(root, 'user-data');
  swarmAtStart = swarmState();
});
after(() => {
  if (initialised) execFileSync('docker', ['swarm', 'leave', '--force'], { stdio: 'ignore' });
  rmSync(root, { recursive: true, force: true });
});

function ensureSwarm(): void {
  if (swarmState() === 'active') return;
  execFileSync('docker', ['swarm', 'init', '--advertise-addr', '127.0.0.1'], { stdio: 'ignore' });
  initialised = true;
}

const batchArgs = (runDir: string, engine: string) => [
  'batch',
  DEMO_CHAIN,
  '--run-dir',
  runDir,
  '--repo',
  demoRepo(),
  '--predictions',
  `agent=${DEMO_PREDICTIONS}`,
  '--mode',
  'oracle,seq',
  '--workers',
  '2',
  '--engine',
  engine,
  '--json',
];

/** Services and configs on the engine that processes `pids` made (by their owner label). */
async function swarmObjectsOf(pids: number[]): Promise<string[]> {
  const filters = { label: ['chainlens.managed=true'] };
  const services = (await docker.listServices({ filters })) as {
    ID: string;
    Spec?: { Labels?: Record<string, string> };
  }[];
  const configs = (await docker.listConfigs({ filters })) as {
    ID: string;
    Spec?: { Labels?: Record<string, string> };
  }[];
  return [...services.map((s) => ['service', s] as const), ...configs.map((c) => ['config', c] as const)]
    .filter(([, o]) => pids.includes(Number(o.Spec?.Labels?.['chainlens.pid'])))
    .map(([kind, o]) => `${kind} ${o.ID}`);
}

/** Containers on the engine (job service tasks included) that processes `pids` made. */
async function containersOf(pids: number[]): Promise<string[]> {
  const all = await docker.listContainers({ all: true, filters: { label: ['chainlens.managed=true'] } });
  return all.filter((c) => pids.includes(Number(c.Labels['chainlens.pid']))).map((c) => c.Id);
}

/**
 * Starts the batch, and sends `signal` `delayMs` after the moment chosen: its start, or the
 * moment its first job service appeared on the engine (so the signal lands while a step runs as
 * a service).
 */
function runSignalled(
  args: string[],
  signal: NodeJS.Signals,
  delayMs: number,
  from: 'start' | 'service' = 'service',
): Promise<{ pid: number; signalled: boolean; sawService: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli(), ...args], {
      env: { ...process.env, CHAINLENS_DATA: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timer: NodeJS.Timeout | undefined;
    let sawService = false;
    let ended = false;
    const arm = () => {
      if (!ended) timer ??= setTimeout(() => child.kill(signal), delayMs);
    };
    if (from === 'start') arm();
    const poll = async () => {
      while (!ended && !sawService) {
        sawService = (await swarmObjectsOf([child.pid!])).some((o) => o.startsWith('service'));
        if (!sawService) await new Promise((r) => setTimeout(r, 200));
      }
      arm();
    };
    void poll();
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', (_code, got) => {
      ended = true;
      clearTimeout(timer);
      resolve({ pid: child.pid!, signalled: got === signal, sawService });
    });
  });
}

test('an engine outside swarm mode: a clear error naming `docker swarm init`, exit 1, nothing written', (t) => {
  if (swarmAtStart === 'active') return t.skip('the shared engine was in swarm mode already when the tests started');
  assert.notEqual(swarmState(), 'active');
  const runDir = join(root, 'no-swarm');
  const r = runBuiltCli(batchArgs(runDir, 'swarm'), { CHAINLENS_DATA: dataDir });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /--engine: swarm needs the Docker engine at .* to be in swarm mode, and it is inactive/);
  assert.match(r.stderr, /docker swarm init/);
  assert.equal(existsSync(runDir), false);
});

test('--engine swarm: the demo batch records what the local engine records; no service or config is left', async () => {
  const local = join(root, 'local');
  const l = runBuiltCli(batchArgs(local, 'local'), { CHAINLENS_DATA: dataDir });
  assert.equal(l.code, 0, l.stderr);
  ensureSwarm();
  const swarm = join(root, 'swarm');
  const child = spawn(process.execPath, [builtCli(), ...batchArgs(swarm, 'swarm')], {
    env: { ...process.env, CHAINLENS_DATA: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const code = await new Promise<number | null>((r) => child.on('close', r));
  assert.equal(code, 0, `${stderr}\n${batchErrors(swarm)}`);
  const expected = verdicts(local);
  assert.equal(Object.keys(expected).length, 6, 'three steps, two modes, one source');
  assert.deepEqual(verdicts(swarm), expected);
  // The steps really ran as job services: the log names it, and the image built with the repository.
  const log = readFileSync(
    join(swarm, 'logs', readdirSync(join(swarm, 'logs'))[0], 'agent', 'seq', 'step-2.log'),
    'utf8',
  );
  assert.match(
    log.split('\n')[0],
    /image chainlens-repo\/base:5a6d67e1afa1-\w+, repository at \/testbed in the image, .* as a Swarm job service$/,
  );
  assert.deepEqual(await swarmObjectsOf([child.pid!]), []);
});

test('SIGKILL and SIGTERM 10 times each at random moments, resumed: records equal the local engine, none written twice, no service or config left', async () => {
  ensureSwarm();
  const reference = join(root, 'local');
  const expected = existsSync(reference) ? verdicts(reference) : undefined;
  const seed = testSeed();
  const rand = seededRandom(seed);
  const runDir = join(root, 'killed');
  const pids: number[] = [];
  const seen = new Map<string, string>();
  let killedWithService = 0;
  for (let kill = 0; kill < 20; kill++) {
    const signal = kill % 2 === 0 ? 'SIGKILL' : 'SIGTERM';
    const args = existsSync(join(runDir, 'manifest.json'))
      ? ['batch', '--run-dir', runDir, '--workers', '2', '--engine', 'swarm', '--json']
      : batchArgs(runDir, 'swarm');
    // Half the kills count from the start (lane preparation, service creation), half from the
    // first job service (a step running, its log being read back, its record being written).
    const from = rand() < 0.5 ? 'start' : 'service';
    const r = await runSignalled(args, signal, Math.floor(rand() * (from === 'start' ? 4000 : 1500)), from);
    pids.push(r.pid);
    if (r.signalled && r.sawService) killedWithService++;
    const rewritten = keepsEarlierRecords(runDir, seen);
    assert.equal(rewritten, undefined, `seed ${seed}: ${rewritten} was rewritten after kill ${kill} (${signal})`);
    if (expected) {
      const now = verdicts(runDir);
      const wrong = Object.keys(now).find((rel) => JSON.stringify(now[rel]) !== JSON.stringify(expected[rel]));
      assert.equal(
        wrong,
        undefined,
        `seed ${seed}: after kill ${kill} (${signal}) ${wrong} differs from the local engine`,
      );
    }
  }
  assert.ok(killedWithService > 0, `seed ${seed}: no batch was killed while a step ran as a job service`);
  const last = runBuiltCli(['batch', '--run-dir', runDir, '--workers', '2', '--engine', 'swarm'], {
    CHAINLENS_DATA: dataDir,
  });
  assert.equal(last.code, 0, last.stderr);
  assert.match(last.stdout, /6\/6 step evaluations recorded/);
  const rewritten = keepsEarlierRecords(runDir, seen);
  assert.equal(rewritten, undefined, `seed ${seed}: ${rewritten} was rewritten`);
  if (expected) assert.deepEqual(verdicts(runDir), expected, `seed ${seed}`);
  assert.deepEqual(await swarmObjectsOf(pids), [], `seed ${seed}: services or configs of killed batches left behind`);
  // A removed service's task containers go away shortly after it (the node's agent removes them).
  let left = await containersOf(pids);
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 500));
    left = await containersOf(pids);
  }
  assert.deepEqual(left, [], `seed ${seed}: containers of killed batches left behind`);
});

test('SIGTERM: the batch removes its own services and configs before it ends', async () => {
  ensureSwarm();
  const runDir = join(root, 'terminated');
  const r = await runSignalled(batchArgs(runDir, 'swarm'), 'SIGTERM', 300);
  assert.ok(r.sawService && r.signalled, 'the batch was terminated while a step ran as a job service');
  assert.deepEqual(await swarmObjectsOf([r.pid]), []);
});
