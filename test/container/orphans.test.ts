// No leaked containers, with real processes on the real engine: a `chainlens eval` stopped by
// SIGTERM while it probes the image takes the probe's container with it; one killed by SIGKILL in
// the middle of the tests leaves its container, which the next ChainLens command removes; and the
// sweep never takes a container whose owner still runs, is unknown, or is on another machine.
// The engine is shared with other test runs: every count here is of containers made from this
// file's own images (unique per test process), never of all ChainLens containers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import {
  connectDocker,
  LABEL_HOST,
  LABEL_PID,
  LABEL_PID_START,
  managedLabels,
  sweepOrphanContainers,
} from '../../src/infra/docker';
import { builtCli, runBuiltCli } from '../helpers/builtCli';
import { makeTinyChain, type TinyChain } from '../helpers/tinyChain';

const BASE_IMAGE = 'chainlens/base:bookworm';
/** Its probe hangs: /testbed looks like a repository, and git sleeps before answering. */
const SLOW_PROBE_IMAGE = `chainlens-test/slow-probe:${process.pid}`;
/** A plain copy of the base image under its own id, so its containers are this file's alone. */
const OWN_IMAGE = `chainlens-test/orphans:${process.pid}`;

let docker: Docker;
let tiny: TinyChain;
let slowChain: string;
const work = mkdtempSync(join(tmpdir(), 'chainlens-orphans-'));

function build(tag: string, dockerfile: string): void {
  execFileSync('docker', ['build', '-q', '-t', tag, '-'], { input: dockerfile, stdio: ['pipe', 'ignore', 'ignore'] });
}

async function containersOf(image: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { ancestor: [image] } });
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, child: ChildProcess): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the CLI ended before ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function startEval(dir: string, chainFile: string, image: string): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      builtCli(),
      'eval',
      chainFile,
      '--repo',
      tiny.repo,
      '--dir',
      join(work, dir),
      '--mode',
      'seq',
      '--predictions',
      'gold',
      '--steps',
      '1',
      '--image',
      image,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr!.resume();
  return child;
}

function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

before(async () => {
  docker = await connectDocker();
  tiny = makeTinyChain();
  // The tests of step 1 run for minutes: the evaluation is surely under way when it is killed.
  slowChain = join(work, 'slow-chain.json');
  const raw = structuredClone(tiny.raw) as typeof tiny.raw & { bug_fixes: { test_cmds: string }[] };
  for (const fix of raw.bug_fixes) fix.test_cmds = 'sleep 600; pytest -rA tests';
  writeFileSync(slowChain, JSON.stringify(raw));
  build(
    SLOW_PROBE_IMAGE,
    `FROM ${BASE_IMAGE}\nRUN mkdir -p /testbed/.git && printf '#!/bin/sh\\nsleep 600\\nexec /usr/bin/git "$@"\\n' > /usr/local/bin/git && chmod +x /usr/local/bin/git\n`,
  );
  build(OWN_IMAGE, `FROM ${BASE_IMAGE}\nLABEL chainlens.test.orphans="${process.pid}"\n`);
});

after(async () => {
  for (const image of [SLOW_PROBE_IMAGE, OWN_IMAGE]) {
    for (const c of await containersOf(image)) await docker.getContainer(c.Id).remove({ force: true });
    spawnSync('docker', ['rmi', '-f', image], { stdio: 'ignore' });
  }
  tiny.cleanup();
});

test('SIGTERM while the image probe runs: the probe container is removed and the CLI ends by the signal', async () => {
  const child = startEval('probe', tiny.chainFile, SLOW_PROBE_IMAGE);
  const exit = ended(child);
  await waitFor(
    'the probe container to run',
    async () => (await containersOf(SLOW_PROBE_IMAGE)).find((c) => c.State === 'running'),
    child,
  );
  child.kill('SIGTERM');
  assert.equal((await exit).signal, 'SIGTERM');
  assert.deepEqual(await containersOf(SLOW_PROBE_IMAGE), []);
});

test('SIGKILL in the middle of the tests leaves the container; the next command removes it', async () => {
  const child = startEval('killed', slowChain, OWN_IMAGE);
  const exit = ended(child);
  const running = await waitFor(
    'the evaluation container to run the tests',
    async () =>
      (await containersOf(OWN_IMAGE)).find(
        (c) => c.State === 'running' && c.Names.some((n) => n.includes('chainlens-')),
      ),
    child,
  );
  assert.equal(running.Labels[LABEL_PID], String(child.pid));
  child.kill('SIGKILL');
  assert.equal((await exit).signal, 'SIGKILL');
  // SIGKILL cannot be caught: the container is left (and the next step's, started ahead, with it).
  const left = await containersOf(OWN_IMAGE);
  assert.ok(left.length >= 1, 'SIGKILL cannot be caught: the container is left');
  assert.deepEqual(
    left.filter((c) => c.Labels[LABEL_PID] !== String(child.pid)),
    [],
    'only the killed process made them',
  );

  // Any later command that reaches Docker: here another evaluation, of another work tree.
  const next = runBuiltCli([
    'eval',
    tiny.chainFile,
    '--repo',
    tiny.repo,
    '--dir',
    join(work, 'next'),
    '--mode',
    'seq',
    '--predictions',
    'gold',
    '--steps',
    '1',
  ]);
  assert.equal(next.code, 0, next.stderr);
  assert.match(next.stderr, /removed \d+ container\(s\) left behind by ChainLens processes that were killed/);
  assert.deepEqual(await containersOf(OWN_IMAGE), []);
});

test("the sweep takes dead processes' containers (pid gone, or pid reused) and never a live, foreign or unknown owner's", async () => {
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const deadPid = dead.stdout;
  const mine = managedLabels('orphans-test');
  const make = async (labels: Record<string, string>) =>
    (await docker.createContainer({ Image: OWN_IMAGE, Cmd: ['true'], Labels: labels })).id;
  const live = await make(mine);
  const reusedPid = await make({ ...mine, [LABEL_PID_START]: 'a process that started at another time' });
  const deadOwner = await make({ ...mine, [LABEL_PID]: deadPid });
  const otherHost = await make({ ...mine, [LABEL_PID]: deadPid, [LABEL_HOST]: 'another-machine.example' });
  const unknownOwner = await make({ 'chainlens.managed': 'true', 'chainlens.run': 'orphans-test' });

  const removed = await sweepOrphanContainers(docker);
  assert.ok(removed.includes(reusedPid) && removed.includes(deadOwner), 'the dead owners are swept');
  const left = (await containersOf(OWN_IMAGE)).map((c) => c.Id).sort();
  assert.deepEqual(left, [live, otherHost, unknownOwner].sort());
});
