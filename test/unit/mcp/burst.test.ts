// A burst of 1,000 tool calls to `chainlens mcp` (a real process on stdio) gets all 1,000 answers,
// and every call is in the step's record: a call appends its events to the record journal
// (docs/run-state.md, "Agent recordings") instead of rewriting a trajectory that grows with every
// call, which made the calls of such a burst slower and slower (967 answers after 180 s). The
// test's timeout is a generous bound for the burst, not a measure of it (bench/ has no such check).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { startMcpAgent } from '../../helpers/mcpAgent';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { parseTrajectory } from '../../../src/core/trajectories';

const CALLS = 1000;
let tiny: TinyChain;

before(() => {
  tiny = makeTinyChain();
});
after(() => tiny.cleanup());

test(
  `a burst of ${CALLS} get_current_step calls: ${CALLS} answers, all recorded, the trajectory still reads`,
  { timeout: 240_000 },
  async () => {
    const dir = join(tiny.root, 'w-burst');
    const r = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    const agent = await startMcpAgent(dir);
    try {
      const answers = await Promise.all(Array.from({ length: CALLS }, () => agent.call('get_current_step')));
      assert.equal(answers.length, CALLS);
      for (const a of answers) {
        assert.equal(a.isError, false, a.text);
        assert.equal(JSON.parse(a.text).step, 1);
      }
      // Submitting ends the step: its trajectory is rendered at once, with every call in it.
      const submitted = await agent.call('submit_step', { step: 1 });
      assert.equal(submitted.isError, false, submitted.text);
      const status = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
      const file = join(status.stateDir, 'runs', status.run.id, 'agent', 'step-1.traj.json');
      const text = readFileSync(file, 'utf8');
      const [traj] = parseTrajectory('step-1.traj.json', text).trajectories;
      const calls = traj.steps.filter((s) => s.tool?.name === 'get_current_step').length;
      assert.equal(calls, CALLS);
      const journal = readFileSync(
        join(status.stateDir, 'runs', status.run.id, 'agent', 'step-1.record.jsonl'),
        'utf8',
      );
      assert.equal(journal.split('\n').filter((l) => l.includes('"get_current_step"')).length, CALLS);
    } finally {
      await agent.close();
    }
  },
);
