// SWE-CI end to end against the real Docker engine, on a real task built from a real repository's
// history (test/helpers/sweciTask.ts): `sweci init` loads the task's image archive and runs the
// tests at base and oracle; a scripted Architect/Programmer (`sweci run`) submits the real
// intermediate commits as iterations, one of which breaks a passing test. The passing counts
// recorded per iteration must equal an independent pytest run of the same states, and the
// metrics must equal the values worked out by hand below.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { builtCli } from '../helpers/builtCli';
import { runCli } from '../helpers/cli';
import {
  buildTaskDataset,
  independentPassingCount,
  removeTaskImage,
  TASK_ID,
  TASK_IMAGE,
  type SweciTaskFixture,
} from '../helpers/sweciTask';

/** One role of an attached agent on the real MCP client, `chainlens sweci mcp` as its own process. */
async function mcpRole(dir: string, role: 'architect' | 'programmer') {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'sweci', 'mcp', '--dir', dir, '--role', role, '--agent-name', `scripted-${role}`],
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: `scripted-${role}`, version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    return { text: r.content.map((c) => c.text).join(''), isError: r.isError === true };
  };
  const tools = (await client.listTools()).tools.map((t) => t.name);
  return { call, tools, close: () => client.close() };
}

let fixture: SweciTaskFixture | undefined;
const task = (): SweciTaskFixture => (fixture ??= buildTaskDataset());
after(() => {
  fixture?.remove();
  removeTaskImage();
});

test('a real task: init measures p0 and p*, the loop grades each real commit, counts match pytest, metrics match by hand', async () => {
  const t = task();
  const dir = join(t.root, 'work');
  const init = await runCli(['sweci', 'init', t.datasetDir, '--task', TASK_ID, '--dir', dir, '--limit', '6', '--json']);
  assert.equal(init.code, 0, init.stderr);
  const initJson = JSON.parse(init.stdout);
  assert.equal(initJson.image, TASK_IMAGE);
  // c0's add and sub pass against the target's tests; at the target all but the rounding test pass.
  assert.equal(initJson.p0, 2);
  assert.equal(initJson.pStar, 6);
  assert.equal(initJson.gap, 4);
  // The work tree holds the current code with the target's tests, and nothing of the target's code.
  assert.match(readFileSync(join(dir, 'tests/test_ops.py'), 'utf8'), /def test_neg/);
  assert.doesNotMatch(readFileSync(join(dir, 'src/calckit/ops.py'), 'utf8'), /def mul/);
  // No later commit reaches the work tree's repository: not the target, not the intermediate ones.
  for (const later of ['c1', 'c2', 'c3', 'c4'])
    assert.throws(() =>
      execFileSync('git', ['cat-file', '-e', `${t.commits[later]}^{commit}`], { cwd: dir, stdio: 'ignore' }),
    );
  assert.equal(
    execFileSync('git', ['rev-list', '--all'], { cwd: dir, encoding: 'utf8' }).includes(t.commits.c4),
    false,
  );

  const gap = await runCli(['sweci', 'gap', '--dir', dir, '--json']);
  assert.equal(gap.code, 0, gap.stderr);
  const gapView = JSON.parse(gap.stdout);
  assert.deepEqual(
    gapView.entries.map((e: { test: string }) => e.test),
    [
      'tests/test_ops.py::test_div',
      'tests/test_ops.py::test_mul',
      'tests/test_ops.py::test_neg',
      'tests/test_ops.py::test_power',
    ],
  );
  assert.match(gapView.entries[1].description, /Test failed\. Reason: AttributeError/);
  assert.match(gapView.entries[1].output, /ops\.mul\(2, 3\)/);

  // Iteration 1 through MCP: the Architect reads the gap and writes the requirement; the
  // Programmer reads it, puts commit c1's source in place and submits.
  const architectAgent = await mcpRole(dir, 'architect');
  try {
    assert.deepEqual(architectAgent.tools, ['get_gap', 'write_requirement']);
    const g = await architectAgent.call('get_gap');
    assert.equal(g.isError, false, g.text);
    assert.equal(JSON.parse(g.text).entries.length, 4);
    const refused = await architectAgent.call('submit_iteration');
    assert.equal(refused.isError, true);
    assert.match(refused.text, /unknown tool 'submit_iteration'/);
    const w = await architectAgent.call('write_requirement', { requirement: '1. ops.mul(a, b) returns the product.' });
    assert.equal(w.isError, false, w.text);
  } finally {
    await architectAgent.close();
  }
  const programmerAgent = await mcpRole(dir, 'programmer');
  try {
    const req = await programmerAgent.call('get_requirement');
    assert.equal(JSON.parse(req.text).requirement.trim(), '1. ops.mul(a, b) returns the product.');
    execFileSync('sh', ['-c', `rm -rf src && git -C "${t.repo}" archive ${t.commits.c1} src | tar -x`], { cwd: dir });
    const sub = await programmerAgent.call('submit_iteration', { iteration: 1 });
    assert.equal(sub.isError, false, sub.text);
    const answer = JSON.parse(sub.text);
    assert.equal(answer.passing, 3);
    assert.equal(answer.gap, 3);
    assert.deepEqual(answer.regressions, []);
  } finally {
    await programmerAgent.close();
  }

  // Iterations 2-4 by the loop with scripted roles: the Architect copies the gap into the requirement; the Programmer puts
  // the source files of the real commit c<iteration> in place (tests untouched).
  const programmer = join(t.root, 'programmer.sh');
  writeFileSync(
    programmer,
    `set -e\nc=$(sed -n "\${SWECI_ITERATION}p" "${join(t.root, 'commits.txt')}")\nrm -rf src\ngit -C "${t.repo}" archive "$c" src | tar -x\n`,
  );
  writeFileSync(join(t.root, 'commits.txt'), ['c1', 'c2', 'c3', 'c4'].map((c) => t.commits[c]).join('\n') + '\n');
  const architect = `{ echo "Make these pass:"; cat "$SWECI_GAP"; } > "$SWECI_REQUIREMENT"`;
  const run = await runCli([
    'sweci',
    'run',
    '--dir',
    dir,
    '--architect',
    architect,
    '--programmer',
    `sh ${programmer}`,
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /4 iteration\(s\), passing 3 3 5 6; stopped \(gap-closed\)/);
  const requirement = await runCli(['sweci', 'requirement', '--dir', dir, '--iteration', '2']);
  assert.match(requirement.stdout, /Make these pass:\n\{"test":"tests\/test_ops.py::test_div"/);

  const status = await runCli(['status', '--dir', dir, '--json']);
  assert.equal(status.code, 0, status.stderr);
  const st = JSON.parse(status.stdout);
  assert.deepEqual(st.sweci.regressionIterations, [2]);
  assert.equal(st.sweci.stopped, 'gap-closed');
  const ends: string[] = st.steps.slice(0, 4).map((s: { end: string }) => s.end);
  assert.equal(ends.length, 4);

  const score = await runCli(['sweci', 'score', dir, '--gamma', '1.2', '--json', '--plots', join(t.root, 'plots')]);
  assert.equal(score.code, 0, score.stderr);
  const { tasks, aggregate } = JSON.parse(score.stdout);
  const s = tasks[0];
  // Independent pytest runs of the four submitted states.
  const independent = ends.map((end) => independentPassingCount(dir, end));
  assert.deepEqual(s.counts, independent);
  assert.deepEqual(s.counts, [3, 3, 5, 6]);
  // By hand: p0 = 2, p* = 6, N = 6; counts padded to 3 3 5 6 6 6 -> NC 1/4 1/4 3/4 1 1 1.
  assert.deepEqual(s.normalizedChanges, [0.25, 0.25, 0.75, 1, 1, 1]);
  // γ = 1: 4.25 / 6. γ = 1.2: weights 1.2 1.44 1.728 2.0736 2.48832 2.985984 (sum 11.915904),
  // weighted 0.3 + 0.36 + 1.296 + 2.0736 + 2.48832 + 2.985984 = 9.503904.
  assert.ok(Math.abs(s.evoScore - 9.503904 / 11.915904) < 1e-12, String(s.evoScore));
  assert.ok(Math.abs(s.evoScores.find((e: { gamma: number }) => e.gamma === 1).evoScore - 4.25 / 6) < 1e-12);
  // Iteration 2 (commit c2) broke test_sub, which passed after iteration 1: not zero-regression,
  // although the count did not drop (3 -> 3).
  assert.deepEqual(s.regressions, [{ iteration: 2, tests: ['tests/test_ops.py::test_sub'] }]);
  assert.equal(s.zeroRegression, false);
  assert.equal(s.countNeverDrops, true);
  assert.equal(s.solved, true);
  assert.equal(aggregate.zeroRegressionRate, 0);
  assert.equal(aggregate.solvedRate, 1);
  assert.ok(existsSync(join(t.root, 'plots', 'evoscore-gamma.svg')));

  // The loop has stopped: another submit is refused and changes nothing.
  const again = await runCli(['sweci', 'submit', '--dir', dir]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /has stopped \(the gap is closed\)/);
});

test('bad tasks are refused naming the task and the cause, and nothing is written', async () => {
  const t = task();
  const badImage = join(t.root, 'work-badimage');
  const r1 = await runCli(['sweci', 'init', t.datasetDir, '--task', 'calckit-badimage', '--dir', badImage]);
  assert.equal(r1.code, 1, r1.stderr);
  assert.match(r1.stderr, /task 'calckit-badimage': the image archive .*image\.tar\.gz did not load: /);
  assert.equal(existsSync(badImage), false);

  const broken = join(t.root, 'work-broken');
  const r2 = await runCli(['sweci', 'init', t.datasetDir, '--task', 'calckit-broken', '--dir', broken]);
  assert.equal(r2.code, 1, r2.stderr);
  assert.match(r2.stderr, /task 'calckit-broken': the oracle's tests do not pass at the oracle/);
  assert.equal(existsSync(broken), false);

  const unknown = await runCli(['sweci', 'init', t.datasetDir, '--task', 'nope', '--dir', join(t.root, 'w3')]);
  assert.equal(unknown.code, 1);
  assert.match(
    unknown.stderr,
    /task 'nope' is not in .*default\.csv \(3 tasks: calckit-1, calckit-broken, calckit-badimage\)/,
  );
});
