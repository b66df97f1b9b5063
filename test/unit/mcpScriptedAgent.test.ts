// A scripted agent on the real MCP client (stdio, the bundled `chainlens mcp` as a separate
// process) solves the demo chain's step 1 in a real checkout, as a coding agent would: it reads
// the step, edits invoicekit/parse.py with plain file writes, submits. Then: the run advanced,
// the step is agent-live, the trajectory was recorded and its patch is the work-tree diff; bad
// arguments are refused with nothing changed; and nothing any tool said contains the chain's answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { startMcpAgent } from '../helpers/mcpAgent';
import { runCli } from '../helpers/cli';
import { DEMO_CHAIN, demoRepo, ROOT } from '../helpers/demoRepo';
import { parseTrajectory } from '../../src/core/trajectories';

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });

interface RawChain {
  bug_fixes: {
    problem_statement: string;
    patch: string;
    test_patch: string;
    FAIL_TO_PASS: string[];
    PASS_TO_PASS: string[];
  }[];
}

/** Strings only the answers contain: added/removed lines of every gold and test patch, hidden test names. */
function secretsOf(chain: RawChain): string[] {
  const visible = chain.bug_fixes.map((s) => s.problem_statement).join('\n');
  const out = new Set<string>();
  for (const step of chain.bug_fixes) {
    for (const patch of [step.patch, step.test_patch]) {
      for (const line of patch.split('\n')) {
        const body = line.slice(1).trim();
        if (/^[+-][^+-]/.test(line) && body.length >= 24) out.add(body);
      }
    }
    for (const id of [...step.FAIL_TO_PASS, ...step.PASS_TO_PASS]) out.add(id);
    out.add(step.test_patch.slice(0, 60));
  }
  // What the problem statements say is not secret (an agent reads them).
  return [...out].filter((s) => s.length >= 12 && !visible.includes(s));
}

async function waitFor(probe: () => boolean, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (probe()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const startAgent = (dir: string, extra: string[] = []) => startMcpAgent(dir, extra);

test('a scripted MCP agent solves demo step 1 in place: run advances, author agent-live, trajectory recorded, no answers leak', async () => {
  const root = mkdtempSync(join(tmpdir(), 'chainlens-mcp-'));
  const dir = join(root, 'work');
  const agent = await (async () => {
    const r = await runCli(['checkout', DEMO_CHAIN, '--repo', demoRepo(), '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    return startAgent(dir);
  })();
  try {
    const chain = JSON.parse(readFileSync(DEMO_CHAIN, 'utf8')) as RawChain;
    const listed = await agent.client.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name).sort(), [
      'get_current_step',
      'get_run_status',
      'run_tests',
      'submit_step',
    ]);
    agent.said.push(JSON.stringify(listed));

    // 1. Read the step.
    const current = await agent.call('get_current_step');
    assert.equal(current.isError, false, current.text);
    const view = JSON.parse(current.text);
    assert.equal(view.step, 1);
    assert.equal(view.mode, 'seq');
    assert.equal(view.repository, dir);
    assert.equal(view.problemStatement, chain.bug_fixes[0].problem_statement);
    assert.equal(view.testFeedback, 'none');

    // 2. Bad arguments: a clear error, nothing changed (no commit, still step 1, author still human).
    const headBefore = git(dir, 'rev-parse', 'HEAD');
    for (const [args, field] of [
      [{ step: 'one' }, /'step'/],
      [{ force: true }, /unknown argument 'force'/],
    ] as const) {
      const bad = await agent.call('submit_step', args);
      assert.equal(bad.isError, true);
      assert.match(bad.text, /bad arguments for submit_step/);
      assert.match(bad.text, field);
      assert.match(bad.text, /nothing was changed/);
    }
    const unknown = await agent.call('read_gold_patch');
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /unknown tool 'read_gold_patch'/);
    let status = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
    assert.equal(status.run.currentStep, 1);
    assert.equal(git(dir, 'rev-parse', 'HEAD'), headBefore);

    // 3. No test feedback by default (benchmark-faithful).
    const tests = await agent.call('run_tests');
    assert.equal(tests.isError, true);
    assert.match(tests.text, /no test feedback/);

    // 4. Edit with plain file writes: the gold change of step 1, applied by the agent itself.
    const file = join(dir, 'invoicekit/parse.py');
    const edited = applyPatch(readFileSync(file, 'utf8'), readFileSync(join(ROOT, 'demo/steps/1/gold.patch'), 'utf8'));
    assert.equal(typeof edited, 'string');
    writeFileSync(file, edited as string);
    // The server watches the work tree: the edit is recorded as it happens, before any further call.
    const before = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
    const trajPath = join(before.stateDir, 'runs', before.run.id, 'agent/step-1.traj.json');
    const seen = await waitFor(() =>
      JSON.parse(readFileSync(trajPath, 'utf8')).info.chainlens.events.some(
        (e: { kind: string }) => e.kind === 'worktree',
      ),
    );
    assert.ok(seen, 'the work-tree change was recorded by the watcher');
    const runStatus = JSON.parse((await agent.call('get_run_status')).text);
    assert.equal(runStatus.currentStep, 1);
    assert.equal(runStatus.steps[0].author, 'agent (scripted-agent)');
    const workTreeDiff = git(dir, 'diff', 'HEAD');

    // 5. Submit.
    const submitted = await agent.call('submit_step', {
      step: 1,
      summary: 'parse_amount reads minus signs and accounting parentheses',
    });
    assert.equal(submitted.isError, false, submitted.text);
    assert.equal(JSON.parse(submitted.text).nextStep, 2);
    assert.equal(JSON.parse((await agent.call('get_current_step')).text).step, 2);

    status = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
    assert.equal(status.run.currentStep, 2);
    assert.deepEqual(status.steps[0].author, { kind: 'agent-live', agent: 'scripted-agent' });
    assert.equal(status.steps[0].status, 'submitted');
    const run = status.run.id as string;
    const stepPatch = git(dir, 'diff', `refs/chainlens/${run}/step-1/start`, `refs/chainlens/${run}/step-1/end`);
    assert.equal(stepPatch, workTreeDiff);

    // 6. The trajectory: a mini-swe-agent 1.1 file the trajectory reader understands.
    const trajFile = join(status.stateDir, 'runs', run, 'agent/step-1.traj.json');
    assert.ok(existsSync(trajFile));
    const text = readFileSync(trajFile, 'utf8');
    const doc = JSON.parse(text);
    assert.equal(doc.trajectory_format, 'mini-swe-agent-1.1');
    assert.equal(doc.info.exit_status, 'submitted');
    assert.equal(doc.info.submission, stepPatch);
    assert.equal(typeof doc.info.time_spent_s, 'number');
    const [traj] = parseTrajectory('step-1.traj.json', text).trajectories;
    assert.equal(traj.submission, stepPatch);
    const actions = traj.steps.map((s) => s.tool?.name);
    assert.deepEqual(actions, [
      'get_current_step',
      'submit_step',
      'submit_step',
      'read_gold_patch',
      'run_tests',
      'worktree_change',
      'get_run_status',
      'submit_step',
    ]);
    const change = doc.info.chainlens.events.find((e: { kind: string }) => e.kind === 'worktree');
    assert.deepEqual(change.files, [{ path: 'invoicekit/parse.py', change: 'modified' }]);
    assert.equal(change.patch, workTreeDiff);
    assert.ok(
      doc.info.chainlens.events.every(
        (e: { kind: string; durationMs?: number }) => e.kind === 'worktree' || typeof e.durationMs === 'number',
      ),
    );

    // 7. Nothing any tool said contains the answers.
    const secrets = secretsOf(chain);
    assert.ok(secrets.length > 20, `only ${secrets.length} distinctive strings`);
    const said = agent.said.join('\n');
    for (const s of secrets) assert.ok(!said.includes(s), `a tool response contains ${JSON.stringify(s)}`);
  } finally {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('chainlens mcp refuses an unknown --feedback level and a directory without a run', async () => {
  const bad = await runCli(['mcp', '--feedback', 'everything', '--dir', tmpdir()]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--feedback must be none, summary or full/);
  const empty = mkdtempSync(join(tmpdir(), 'chainlens-mcp-empty-'));
  try {
    const r = await runCli(['mcp', '--dir', empty]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /not a git work tree/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
