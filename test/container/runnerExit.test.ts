// A ChainLens process stopped by a signal mid-evaluation takes its container with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { connectDocker } from '../../src/infra/docker';

async function containersOf(runId: string): Promise<number> {
  const docker = await connectDocker();
  return (await docker.listContainers({ all: true, filters: { label: [`chainlens.run=${runId}`] } })).length;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} during the tests removes the evaluation container and still ends the process`, async () => {
    const runId = `runner-exit-${process.pid}-${signal.toLowerCase()}`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, '../fixtures/evaluation/evalChild.ts'), runId],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, sig) => resolve({ code, sig })),
    );
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes(`TESTS RUNNING ${runId}`)) resolve();
      });
      child.on('exit', () => reject(new Error(`child exited before the tests ran: ${out}`)));
    });
    assert.equal(await containersOf(runId), 1);
    child.kill(signal);
    const { sig } = await exited;
    assert.equal(sig, signal);
    assert.equal(await containersOf(runId), 0);
  });
}
