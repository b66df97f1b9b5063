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
import { openTask } from '../../src/app/sweci/openTask';
import { builtCli, runBuiltCli, runBuiltCliKilledAfter } from '../helpers/builtCli';
import { seededRandom, testSeed } from '../helpers/batchRecords';
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

/** An Appendix C requirement of one item (the shape `sweci init` asks for by default). */
const MUL_REQUIREMENT =
  '<requirements><requirement><location>src/calckit/ops.py: mul</location><description>mul is missing</description>' +
  '<contract>ops.mul(a, b) returns the product of a and b</contract><acceptance>tests/test_ops.py::test_mul</acceptance></requirement></requirements>';
/** A scripted Architect: one Appendix C item whose acceptance is the gap (SWECI_GAP) as it is. */
const GAP_ARCHITECT =
  `{ echo "<requirements><requirement><location>src/calckit/ops.py</location><description>tests of the gap fail</description>"; ` +
  `echo "<contract>the gap's tests pass</contract><acceptance><![CDATA["; cat "$SWECI_GAP"; echo "]]></acceptance></requirement></requirements>"; } > "$SWECI_REQUIREMENT"`;

let fixture: SweciTaskFixture | undefined;
// calckit-2 (c1 → c3) is the second task of the batch test.
const task = (): SweciTaskFixture => (fixture ??= buildTaskDataset([['calckit-2', 'c1', 'c3']]));
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
    // Free text is not Appendix C's shape: refused, naming why.
    const free = await architectAgent.call('write_requirement', {
      requirement: '1. ops.mul(a, b) returns the product.',
    });
    assert.equal(free.isError, true);
    assert.match(free.text, /does not have SWE-CI's shape .*: it is not an XML document/);
    const w = await architectAgent.call('write_requirement', { requirement: MUL_REQUIREMENT });
    assert.equal(w.isError, false, w.text);
  } finally {
    await architectAgent.close();
  }
  const programmerAgent = await mcpRole(dir, 'programmer');
  try {
    const req = await programmerAgent.call('get_requirement');
    assert.equal(JSON.parse(req.text).requirement.trim(), MUL_REQUIREMENT);
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
  const architect = GAP_ARCHITECT;
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
  assert.match(requirement.stdout, /<acceptance><!\[CDATA\[\n\{"test":"tests\/test_ops.py::test_div"/);

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
    /task 'nope' is not in .*default\.csv \(4 tasks: calckit-1, calckit-broken, calckit-badimage, calckit-2\)/,
  );
});

/** Puts commit `c`'s source in the work tree (tests untouched), as a scripted Programmer. */
function programmerWrites(t: SweciTaskFixture, dir: string, c: string): void {
  execFileSync('sh', ['-c', `rm -rf src && git -C "${t.repo}" archive ${t.commits[c]} src | tar -x`], { cwd: dir });
}

/** The recorded iteration `i` (the run's SWE-CI record, read as every command reads it) and the run's steps. */
async function iterationRecord(dir: string, i: number) {
  const { record, state } = await openTask(dir, undefined, false);
  return { record, it: record.iterations[i - 1], steps: state.steps as { end: string }[] };
}

test("defaults: the Programmer's test changes are reset and recorded, a failed test run's code is discarded as run.py does", async () => {
  const t = task();
  const dir = join(t.root, 'work-defaults');
  const init = await runCli(['sweci', 'init', t.datasetDir, '--task', TASK_ID, '--dir', dir, '--limit', '6']);
  assert.equal(init.code, 0, init.stderr);
  const file = join(t.root, 'free.md');
  writeFileSync(file, '1. ops.mul(a, b) returns the product.\n');
  const free = await runCli(['sweci', 'requirement', '--dir', dir, '--file', file]);
  assert.equal(free.code, 1);
  assert.match(free.stderr, /requirement of iteration 1 \(.*free\.md\) does not have SWE-CI's shape/);
  assert.equal((await runCli(['sweci', 'requirement', '--dir', dir])).stdout.includes('ops.mul'), false);

  // Iteration 1: c1's code, plus a weakened test and a new one under tests/.
  programmerWrites(t, dir, 'c1');
  const testFile = join(dir, 'tests/test_ops.py');
  const original = readFileSync(testFile, 'utf8');
  writeFileSync(
    testFile,
    original.replace(/def test_div\(\):\n(\s+.*\n)+?(?=\n|def )/, 'def test_div():\n    assert True\n'),
  );
  assert.notEqual(readFileSync(testFile, 'utf8'), original);
  writeFileSync(join(dir, 'tests/test_extra.py'), 'def test_extra():\n    assert True\n');
  const s1 = await runCli(['sweci', 'submit', '--dir', dir]);
  assert.equal(s1.code, 0, s1.stderr);
  assert.match(s1.stdout, /iteration 1: 3 passing, 0 regression\(s\), gap 3/);
  assert.match(s1.stdout, /tests reset: tests\/test_extra.py, tests\/test_ops.py/);
  const one = await iterationRecord(dir, 1);
  assert.deepEqual(one.it.testChangesReset!.paths, ['tests/test_extra.py', 'tests/test_ops.py']);
  assert.match(readFileSync(one.it.testChangesReset!.diffPath, 'utf8'), /\+def test_extra\(\):/);
  // The graded commit and the work tree hold the task's tests; pytest on it agrees.
  assert.equal(readFileSync(testFile, 'utf8'), original);
  assert.equal(existsSync(join(dir, 'tests/test_extra.py')), false);
  assert.equal(
    execFileSync('git', ['diff', '--name-only', one.record.task.baseCommit, one.steps[0].end, '--', 'tests'], {
      cwd: dir,
      encoding: 'utf8',
    }),
    '',
  );
  assert.equal(independentPassingCount(dir, one.steps[0].end), 3);

  // Iteration 2: code that does not import; pytest stops at collection (exit 2), the run does not count.
  writeFileSync(join(dir, 'src/calckit/ops.py'), 'def broken(:\n');
  const s2 = await runCli(['sweci', 'submit', '--dir', dir]);
  assert.equal(s2.code, 0, s2.stderr);
  assert.match(s2.stdout, /iteration 2: 0 passing, 3 regression\(s\)/);
  assert.match(s2.stdout, /tests did not run: pytest ended with exit code 2/);
  assert.match(s2.stdout, /its code is discarded; the next iteration starts from/);
  const two = await iterationRecord(dir, 2);
  assert.equal(two.it.discarded!.restoredFrom, one.steps[0].end);
  // The work tree holds iteration 1's code again, committed; the Architect's gap is iteration 1's.
  assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }), '');
  assert.equal(
    execFileSync('git', ['diff', '--name-only', one.steps[0].end, 'HEAD'], { cwd: dir, encoding: 'utf8' }),
    '',
  );
  const gap = JSON.parse((await runCli(['sweci', 'gap', '--dir', dir, '--json'])).stdout);
  assert.equal(gap.passing, 3);
  assert.equal(gap.entries.length, 3);

  // Iteration 3 changes nothing: it starts from iteration 1's code, so 3 pass and nothing regresses.
  const s3 = await runCli(['sweci', 'submit', '--dir', dir]);
  assert.equal(s3.code, 0, s3.stderr);
  assert.match(s3.stdout, /iteration 3: 3 passing, 0 regression\(s\), gap 3/);
  const score = JSON.parse((await runCli(['sweci', 'score', dir, '--json'])).stdout).tasks[0];
  assert.deepEqual(score.counts, [3, 0, 3]);
  const status = await runCli(['status', '--dir', dir]);
  assert.match(status.stdout, /code discarded in iteration 2, tests reset in iteration 1/);
  assert.equal(score.countNeverDrops, false);
});

test('--test-changes refuse names the changed tests and submits nothing; --failed-run keep keeps the code; --free-requirement takes text', async () => {
  const t = task();
  const dir = join(t.root, 'work-refuse');
  const init = await runCli([
    'sweci',
    'init',
    t.datasetDir,
    '--task',
    TASK_ID,
    '--dir',
    dir,
    '--limit',
    '3',
    '--test-changes',
    'refuse',
    '--failed-run',
    'keep',
    '--free-requirement',
  ]);
  assert.equal(init.code, 0, init.stderr);
  const file = join(t.root, 'free2.md');
  writeFileSync(file, '1. ops.mul(a, b) returns the product.\n');
  assert.equal((await runCli(['sweci', 'requirement', '--dir', dir, '--file', file])).code, 0);

  const testFile = join(dir, 'tests/test_ops.py');
  writeFileSync(testFile, readFileSync(testFile, 'utf8') + '\ndef test_more():\n    assert True\n');
  const refused = await runCli(['sweci', 'submit', '--dir', dir]);
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /iteration 1: the Programmer changed the task's tests \(tests\/test_ops.py\).*nothing was submitted/,
  );
  // Nothing submitted, and the Programmer's change is still there.
  const st = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
  assert.equal(st.sweci.iterations, 0);
  assert.match(readFileSync(testFile, 'utf8'), /def test_more/);

  execFileSync('git', ['checkout', '--', 'tests'], { cwd: dir });
  writeFileSync(join(dir, 'src/calckit/ops.py'), 'def broken(:\n');
  const s1 = await runCli(['sweci', 'submit', '--dir', dir]);
  assert.equal(s1.code, 0, s1.stderr);
  assert.match(s1.stdout, /iteration 1: 0 passing/);
  assert.doesNotMatch(s1.stdout, /discarded/);
  // Kept: the next iteration starts from the code whose tests did not run.
  assert.equal(readFileSync(join(dir, 'src/calckit/ops.py'), 'utf8'), 'def broken(:\n');
});

/**
 * Two scripted agents for the batch: `stepper`'s Programmer puts the next real commit's source in
 * place each iteration (commits-<task>.txt); `leaper`'s does nothing in iteration 1 and puts the
 * target's source in place in iteration 2. Both Architects write one Appendix C item of the gap.
 */
function batchAgents(t: SweciTaskFixture): string[] {
  const c = t.commits;
  writeFileSync(join(t.root, 'commits-calckit-1.txt'), [c.c1, c.c2, c.c3, c.c4].join('\n') + '\n');
  writeFileSync(join(t.root, 'commits-calckit-2.txt'), [c.c2, c.c3].join('\n') + '\n');
  writeFileSync(join(t.root, 'target-calckit-1.txt'), c.c4 + '\n');
  writeFileSync(join(t.root, 'target-calckit-2.txt'), c.c3 + '\n');
  const stepper = join(t.root, 'stepper.sh');
  writeFileSync(
    stepper,
    `set -e\nc=$(sed -n "\${SWECI_ITERATION}p" "${t.root}/commits-$SWECI_TASK.txt")\nrm -rf src\ngit -C "${t.repo}" archive "$c" src | tar -x\n`,
  );
  const leaper = join(t.root, 'leaper.sh');
  writeFileSync(
    leaper,
    `set -e\n[ "$SWECI_ITERATION" -ge 2 ] || exit 0\nrm -rf src\ngit -C "${t.repo}" archive "$(cat "${t.root}/target-$SWECI_TASK.txt")" src | tar -x\n`,
  );
  return [
    '--agent',
    'stepper',
    '--architect',
    GAP_ARCHITECT,
    '--programmer',
    `sh ${stepper}`,
    '--agent',
    'leaper',
    '--architect',
    GAP_ARCHITECT,
    '--programmer',
    `sh ${leaper}`,
  ];
}

/** What must not differ between two runs of a batch: every task's scores, without run ids and log paths. */
function scoresOf(report: {
  tasks: Record<string, unknown>[];
  agents: unknown;
  rankings: unknown;
  linesChanged: unknown;
}) {
  return {
    tasks: report.tasks.map(({ runId: _r, ...rest }) => rest),
    agents: report.agents,
    rankings: report.rankings,
    linesChanged: report.linesChanged,
  };
}

test('chainlens batch over a SWE-CI dataset: two agents, killed by SIGKILL at random moments and resumed, scores equal an uninterrupted run, pytest and the values by hand', async () => {
  const t = task();
  const newBatch = (runDir: string) => [
    'batch',
    t.datasetDir,
    '--run-dir',
    runDir,
    '--task',
    'calckit-1',
    '--task',
    'calckit-2',
    '--limit',
    '2',
    '--workers',
    '2',
    ...batchAgents(t),
  ];
  const reference = join(t.root, 'batch-whole');
  const started = Date.now();
  const whole = runBuiltCli(newBatch(reference));
  const wholeMs = Date.now() - started;
  assert.equal(whole.code, 0, whole.stderr);
  const expected = JSON.parse((await runCli(['report', reference, '--json'])).stdout);

  const seed = testSeed();
  const rand = seededRandom(seed);
  const runDir = join(t.root, 'batch-killed');
  let kills = 0;
  for (let round = 0; round < 3; round++) {
    const args = existsSync(join(runDir, 'sweci-batch.json'))
      ? ['batch', '--run-dir', runDir, '--workers', '2']
      : newBatch(runDir);
    const r = await runBuiltCliKilledAfter(args, 300 + Math.floor(rand() * wholeMs * 0.8));
    if (r.signal === 'SIGKILL') kills++;
    else assert.equal(r.code, 0, `seed ${seed}: ${r.stderr}`);
  }
  const last = runBuiltCli(
    existsSync(join(runDir, 'sweci-batch.json')) ? ['batch', '--run-dir', runDir, '--workers', '2'] : newBatch(runDir),
  );
  assert.equal(last.code, 0, `seed ${seed}: ${last.stderr}`);
  assert.ok(kills >= 1, `seed ${seed}: no kill landed`);
  const resumed = JSON.parse((await runCli(['report', runDir, '--json'])).stdout);
  assert.deepEqual(scoresOf(resumed), scoresOf(expected), `seed ${seed}`);

  // By hand. calckit-1: p0 2, p* 6; calckit-2 (c1's code, c3's tests): p0 3, p* 5.
  const row = (agent: string, taskId: string) =>
    resumed.tasks.find((s: { agent: string; taskId: string }) => s.agent === agent && s.taskId === taskId);
  assert.deepEqual(row('stepper', 'calckit-1').counts, [3, 3]);
  assert.deepEqual(row('stepper', 'calckit-1').normalizedChanges, [0.25, 0.25]);
  assert.deepEqual(row('stepper', 'calckit-1').regressions, [{ iteration: 2, tests: ['tests/test_ops.py::test_sub'] }]);
  assert.deepEqual(row('leaper', 'calckit-1').counts, [2, 6]);
  assert.equal(row('leaper', 'calckit-1').evoScore, 0.5);
  assert.deepEqual(row('stepper', 'calckit-2').counts, [3, 5]);
  assert.equal(row('stepper', 'calckit-2').zeroRegression, false);
  assert.deepEqual(row('leaper', 'calckit-2').counts, [3, 5]);
  assert.equal(row('leaper', 'calckit-2').zeroRegression, true);
  const agent = (name: string) => resumed.agents.find((a: { agent: string }) => a.agent === name);
  assert.equal(agent('stepper').meanEvoScore, (0.25 + 0.5) / 2);
  assert.equal(agent('leaper').meanEvoScore, 0.5);
  assert.equal(agent('leaper').zeroRegressionRate, 1);
  assert.equal(agent('stepper').solvedRate, 0.5);
  // γ = 1.2 over N = 2: stepper calckit-1 (1.2·0.25 + 1.44·0.25)/2.64 = 0.25, calckit-2 1.44/2.64.
  const at12 = resumed.rankings.find((r: { gamma: number }) => r.gamma === 1.2);
  assert.deepEqual(at12.agents, ['leaper', 'stepper']);
  const stepper12 = agent('stepper').sensitivity.find((e: { gamma: number }) => e.gamma === 1.2).meanEvoScore;
  assert.ok(Math.abs(stepper12 - (0.25 + 1.44 / 2.64) / 2) < 1e-12, String(stepper12));

  // Independent pytest runs of every graded state of the resumed batch.
  const { openTask: open } = await import('../../src/app/sweci/openTask');
  const { withDataRoot } = await import('../../src/infra/run/stateDir');
  for (const a of ['stepper', 'leaper'])
    for (const taskId of ['calckit-1', 'calckit-2']) {
      const work = join(runDir, 'runs', a, taskId);
      const { record } = await withDataRoot(join(runDir, 'state'), () => open(work, undefined, false));
      assert.deepEqual(
        record.iterations.map((it) => independentPassingCount(work, it.run.commit)),
        row(a, taskId).counts,
        `seed ${seed}: ${a} ${taskId}`,
      );
    }

  const plots = join(t.root, 'batch-plots');
  const text = await runCli(['report', runDir, '--plots', plots]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /1\.2\s+0\.\d+\s+0\.5455\s+leaper > stepper/);
  for (const svg of ['evoscore-gamma.svg', 'regressions-by-iteration.svg', 'cumulative-best.svg', 'lines-changed.svg'])
    assert.match(readFileSync(join(plots, svg), 'utf8'), /^<svg/);
});
