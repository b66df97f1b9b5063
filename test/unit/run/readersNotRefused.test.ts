// Opening a run is reading: while one process holds the run's writer lock (a submit held by failure
// injection right after it took the lock), another process that only opens it (a window or an MCP
// server starting) gets the run as last saved instead of a refusal. Without this,
// a window and an agent's MCP server opening the same run at once refused each other (the
// agentTools e2e failed on it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtCli } from '../../helpers/builtCli';
import { runCli } from '../../helpers/cli';
import { openWorkspace } from '../../../src/infra/run/workspace';
import { makeTinyChain } from '../../helpers/tinyChain';

test('a reader answers while a writer holds the run; the writer then finishes', async () => {
  const c = makeTinyChain();
  try {
    const dir = join(c.root, 'work');
    assert.equal((await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir])).code, 0);
    writeFileSync(join(dir, 'work.txt'), "the person's work\n");
    const resume = join(c.root, 'resume');
    const writer = spawn(process.execPath, [builtCli(), 'submit', '--dir', dir], {
      env: { ...process.env, CHAINLENS_FAULT_PAUSE_AT: 'locked:submit', CHAINLENS_FAULT_RESUME: resume },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    writer.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => writer.on('close', (code) => r(code)));
    // Wait until the writer holds the lock (it then stays paused until `resume` exists).
    const { stateDir } = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
    while (!existsSync(join(stateDir, 'lock'))) await new Promise((r) => setTimeout(r, 20));
    // What a window or an MCP server does when it starts: open the run.
    const opened = await (await openWorkspace(dir)).engine.open();
    assert.equal(opened.state.currentStep, 1, 'the run as last saved: step 1 is still current');
    assert.deepEqual(opened.notes, []);
    writeFileSync(resume, '');
    assert.equal(await exited, 0, stderr);
    const after = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
    assert.equal(after.run.currentStep, 2);
  } finally {
    c.cleanup();
  }
});
