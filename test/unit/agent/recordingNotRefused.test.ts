// An agent's tool call that arrives while another agent session is recording the work tree (its
// file watcher noting an edit, which holds the run's lock for milliseconds) waits for it instead of
// failing with "the run is being changed": the agentTools e2e failed on exactly this, a window's
// language-model tool submitting while the MCP server VS Code started recorded the agent's edit.
// Any other holder is still refused at once (docs/run-state.md, "One writer per run").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { DEMO_CHAIN, demoRepo } from '../../helpers/demoRepo';
import { AgentSession } from '../../../src/app/agent/session';
import { openWorkspace } from '../../../src/infra/run/workspace';

test('a tool call waits while another session records the work tree, and is refused at once by any other writer', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-recording-'));
  const dir = join(root, 'work');
  try {
    assert.equal((await runCli(['checkout', DEMO_CHAIN, '--repo', demoRepo(), '--dir', dir])).code, 0);
    const session = await AgentSession.open({ dir, agent: 'bot' });
    const other = await openWorkspace(dir);

    let released = false;
    const recording = other.store.hold('record the work tree', async () => {
      await new Promise((r) => setTimeout(r, 300));
      released = true;
    });
    const answer = await session.call('get_current_step', {});
    await recording;
    assert.equal(answer.isError, false, answer.text);
    assert.ok(released, 'the call was answered after the recording let go of the run');
    assert.equal(JSON.parse(answer.text).step, 1);

    const submitting = other.store.hold('submit', () => new Promise((r) => setTimeout(r, 300)));
    const refused = await session.call('get_current_step', {});
    await submitting;
    assert.equal(refused.isError, true);
    assert.match(refused.text, /: submit, since [^)]*\) is changing .*nothing was done/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
