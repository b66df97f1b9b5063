// A burst of tool calls to `chainlens mcp` (a real process on stdio) gets every answer, every call
// is in the step's record, and what the server writes per call does not grow with the record: a
// call appends its event to the record journal (docs/run-state.md, "Agent recordings"). The
// server that rewrote the whole trajectory on every call wrote about CALLS / 2 times the final
// record over the burst (a 1,000-call burst had 967 answers after 180 s); appending writes the
// record once, the answers once, and a few coalesced renders of the trajectory. Measured in
// bytes the process wrote (/proc/<pid>/io, wchar), not in time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { startMcpAgent } from '../../helpers/mcpAgent';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { parseTrajectory } from '../../../src/core/trajectories';

const CALLS = 150;
/** Each answer (the step's problem statement) is about this long, so the record grows ~2.5 MB. */
const STATEMENT_BYTES = 16_000;
/**
 * Rewriting writes about CALLS / 2 records (more, rendered); appending writes the record and the
 * answers once, plus the coalesced renders (at most one per 500 ms: ~25 records over a burst of
 * 35 s on a loaded 2-core machine). The bound is a third of CALLS: half of what rewriting writes.
 */
const MAX_WRITTEN_PER_RECORD = CALLS / 3;

let tiny: TinyChain;

before(() => {
  tiny = makeTinyChain();
  const raw = tiny.raw as unknown as { bug_fixes: { problem_statement: string }[] };
  raw.bug_fixes[0].problem_statement = 'Bug 1 of the tiny chain. ' + 'The sum is wrong. '.repeat(STATEMENT_BYTES / 18);
  writeFileSync(tiny.chainFile, JSON.stringify(raw, null, 2));
});
after(() => tiny.cleanup());

/** Bytes the process has passed to write(2) so far (files and pipes alike). */
function bytesWritten(pid: number): number {
  const m = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  assert.ok(m, `/proc/${pid}/io has no wchar line`);
  return Number(m[1]);
}

test(`a burst of ${CALLS} get_current_step calls: every answer, all recorded, the record appended not rewritten`, async () => {
  const dir = join(tiny.root, 'w-burst');
  const r = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir]);
  assert.equal(r.code, 0, r.stderr);
  const agent = await startMcpAgent(dir);
  try {
    const pid = (agent.client.transport as { pid?: number | null } | undefined)?.pid;
    assert.ok(pid, 'the MCP server process has a pid');
    // The first call makes the record; the burst then extends it.
    assert.equal((await agent.call('get_current_step')).isError, false);
    const status = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
    const agentDir = join(status.stateDir, 'runs', status.run.id, 'agent');
    const journalFile = join(agentDir, 'step-1.record.jsonl');
    const first = { text: readFileSync(journalFile, 'utf8'), ino: statSync(journalFile).ino };
    const written = bytesWritten(pid);
    const answers = await Promise.all(Array.from({ length: CALLS }, () => agent.call('get_current_step')));
    const burstWrote = bytesWritten(pid) - written;
    for (const a of answers) {
      assert.equal(a.isError, false, a.text);
      assert.equal(JSON.parse(a.text).step, 1);
    }
    // Appended in place: the same file, what it held before the burst its unchanged beginning.
    assert.equal(statSync(journalFile).ino, first.ino, 'the record was replaced, not appended to');
    const journal = readFileSync(journalFile, 'utf8');
    assert.ok(journal.startsWith(first.text), 'the record was rewritten, not appended to');
    const record = statSync(journalFile).size;
    assert.ok(record > CALLS * STATEMENT_BYTES, `the record holds every answer (${record} bytes)`);
    assert.ok(
      burstWrote < MAX_WRITTEN_PER_RECORD * record,
      `the burst wrote ${burstWrote} bytes, ${(burstWrote / record).toFixed(1)} times its ${record}-byte record`,
    );
    assert.equal(journal.split('\n').filter((l) => l.includes('"get_current_step"')).length, CALLS + 1);
    // Submitting ends the step: its trajectory is rendered at once, with every call in it.
    const submitted = await agent.call('submit_step', { step: 1, allow_empty: true });
    assert.equal(submitted.isError, false, submitted.text);
    const text = readFileSync(join(agentDir, 'step-1.traj.json'), 'utf8');
    const [traj] = parseTrajectory('step-1.traj.json', text).trajectories;
    assert.equal(traj.steps.filter((s) => s.tool?.name === 'get_current_step').length, CALLS + 1);
  } finally {
    await agent.close();
  }
});
