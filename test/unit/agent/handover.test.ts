// The AH condition in place: an agent works step 1, a person stops it / takes over, hands it back;
// the run keeps who authored what, and the agent cannot submit a step a person has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { DEMO_CHAIN, demoRepo } from '../../helpers/demoRepo';
import { AgentSession } from '../../../src/app/agent/session';
import { handStepToAgent, takeOverStep } from '../../../src/infra/agent/handover';
import { loadAgentRecord } from '../../../src/infra/agent/agentFiles';

test("AH: the agent claims step 1, a person takes it over (agent submit refused), hands it back, the agent submits; step 2 is the person's", async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-ah-'));
  const dir = join(root, 'work');
  try {
    assert.equal((await runCli(['checkout', DEMO_CHAIN, '--repo', demoRepo(), '--dir', dir])).code, 0);
    const session = await AgentSession.open({ dir, agent: 'bot' });
    const runId = (await session.workspace.engine.open()).state.runId;
    await session.call('get_current_step', {});
    assert.deepEqual((await session.workspace.engine.open()).state.steps[0].author, {
      kind: 'agent-live',
      agent: 'bot',
    });

    const file = join(dir, 'invoicekit/parse.py');
    writeFileSync(file, readFileSync(file, 'utf8') + '\n# agent was here\n');
    const taken = await takeOverStep(dir, 'taken_over', 'ana');
    assert.deepEqual(taken.state.steps[0].author, { kind: 'human', name: 'ana' });
    const takenRecord = loadAgentRecord(session.workspace.store.root, runId, 1)!;
    assert.equal(takenRecord.exitStatus, 'taken_over');
    // The edit the agent made after its last call is recorded as its own, at the take-over.
    assert.match(
      takenRecord.events.at(-1)!.kind === 'worktree' ? (takenRecord.events.at(-1) as { diff: string }).diff : '',
      /agent was here/,
    );
    const refused = await session.call('submit_step', {});
    assert.equal(refused.isError, true);
    assert.match(refused.text, /a person took over step 1/);
    assert.equal((await session.workspace.engine.open()).state.currentStep, 1);
    assert.match(readFileSync(file, 'utf8'), /agent was here/, 'the work tree is left as the agent left it');

    const back = await handStepToAgent(dir, 'bot');
    assert.deepEqual(back.state.steps[0].author, { kind: 'agent-live', agent: 'bot' });
    const ok = await session.call('submit_step', { step: 1 });
    assert.equal(ok.isError, false, ok.text);
    const record = loadAgentRecord(session.workspace.store.root, runId, 1)!;
    assert.equal(record.exitStatus, 'submitted');
    assert.match(record.submission!, /agent was here/);

    // Step 2: the person takes it before the agent touches it; the agent's reads do not claim it back.
    await takeOverStep(dir, 'taken_over', 'ana');
    await session.call('get_current_step', {});
    const after = (await session.workspace.engine.open()).state;
    assert.deepEqual(after.steps[1].author, { kind: 'human', name: 'ana' });
    assert.deepEqual(after.steps[0].author, { kind: 'agent-live', agent: 'bot' });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
