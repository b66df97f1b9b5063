// Agents inside the chain loop (docs/reference/agents.md), with scripted shell agents and no model:
// `chainlens agent run` and `chainlens batch --agent` as processes, on the demo chain and the tiny
// chain, grading every step in real containers. Seq outcomes of an agent equal those of its patches
// given as predictions; seq+mem carries the memory directory and seq does not; Oracle starts each
// step from gold; a timed-out agent is killed with its process group and graded on what it left;
// an agent searching everything its container can reach finds no answer; a batch killed at random
// moments resumes to the records and patches of an uninterrupted run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli, runBuiltCli } from '../helpers/builtCli';
import { DEMO_CHAIN, DEMO_PREDICTIONS, ROOT, demoRepo } from '../helpers/demoRepo';
import { git, makeTinyChain, type TinyChain } from '../helpers/tinyChain';
import { demoRepoWithFixCommits } from '../helpers/demoFixCommits';
import { batchErrors, batchVerdicts, seededRandom, testSeed } from '../helpers/batchRecords';

let tiny: TinyChain;
let root: string;
let dataDir: string;

before(() => {
  tiny = makeTinyChain();
  root = mkdtempSync(join(tmpdir(), 'chainlens-agent-loop-'));
  dataDir = join(root, 'user-data');
});
after(() => {
  tiny.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const cli = (args: string[]) => runBuiltCli(args, { CHAINLENS_DATA: dataDir });

/** The tiny chain cut to its first `steps` steps, as a chain file of its own. */
function firstSteps(steps: number): string {
  const file = join(root, `tiny-${steps}.json`);
  if (!existsSync(file)) {
    const fixes = tiny.raw.bug_fixes.slice(0, steps);
    const ids = fixes.map((f) => f.swebench_instance_id);
    writeFileSync(file, JSON.stringify({ ...tiny.raw, bug_fixes: fixes, swebench_instance_ids: ids }));
  }
  return file;
}

/** `chainlens agent run` on the tiny chain (its first `steps`) into a new work tree: the tree and the output. */
function agentRun(name: string, mode: string, agent: string, extra: string[] = [], steps = 3) {
  const dir = join(root, name);
  const r = cli([
    'agent',
    'run',
    firstSteps(steps),
    '--repo',
    tiny.repo,
    '--dir',
    dir,
    '--mode',
    mode,
    '--agent',
    agent,
    ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
  return { dir, stdout: r.stdout, show: (rev: string, path: string) => gitShow(dir, rev, path) };
}

function gitShow(dir: string, rev: string, path: string): string | null {
  const r = spawnSync('git', ['show', `${rev}:${path}`], { cwd: dir, encoding: 'utf8' });
  return r.status === 0 ? r.stdout : null;
}

/** The commit step `k` of the work tree's current run ended at. */
function stepEnd(dir: string, stdout: string, k: number): string {
  const runId = /agent run (\S+) /.exec(stdout)![1];
  return git(dir, 'rev-parse', `refs/chainlens/${runId}/step-${k}/end`).trim();
}

/** The demo agent's patch of the current step, applied by a host agent (its files are the user's). */
const DEMO_AGENT = `git apply ${join(ROOT, 'demo/steps')}/$CHAINLENS_STEP/predicted.patch`;

/**
 * `chainlens batch` of the demo chain under Seq with the predictions file as source `recorded`
 * and the host agent as source `scripted`; each source's verdicts by step, lane names removed.
 */
function seqAgainstPredictions(runDir: string, predictions: string, agent: string) {
  const r = cli([
    'batch',
    DEMO_CHAIN,
    '--run-dir',
    runDir,
    '--repo',
    demoRepo(),
    '--predictions',
    `recorded=${predictions}`,
    '--agent',
    `scripted=${agent}`,
    '--agent-in',
    'host',
    '--mode',
    'seq',
    '--workers',
    '2',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const verdicts = batchVerdicts(runDir);
  return (source: string) =>
    Object.entries(verdicts)
      .filter(([rel]) => rel.includes(`/${source}/seq/`))
      .map(([rel, v]) => [rel.replace(`/${source}/`, '/'), v]);
}

test('seq: an agent applying the demo agent patches step by step gets the outcomes of the same patches as predictions; its record keeps exit code, wall time, cost and trajectory', () => {
  const runDir = join(root, 'demo-batch');
  const traj = join(ROOT, 'demo/trajectories/chainlens-demo__invoicekit-101.traj.json');
  // Step 1 writes a mini-swe-agent trajectory that records a cost.
  const agent = `${DEMO_AGENT} && if [ "$CHAINLENS_STEP" = 1 ]; then sed 's/"instance_cost": 0.0/"instance_cost": 0.42/' ${traj} > "$CHAINLENS_TRAJECTORY"; fi; exit 3`;
  const lane = seqAgainstPredictions(runDir, DEMO_PREDICTIONS, agent);
  assert.equal(lane('scripted').length, 3);
  assert.deepEqual(lane('scripted'), lane('recorded'));
  // The demo's Seq story: step 1 partial, step 2 a chain error, step 3 resolved.
  assert.deepEqual(
    lane('scripted').map(([, v]) => (v as unknown[])[0]),
    ['unresolved', 'unresolved', 'resolved'],
  );

  const records = join(runDir, 'records');
  const chainDir = readdirSync(records)[0];
  const rec = (k: number) =>
    JSON.parse(readFileSync(join(records, chainDir, 'scripted', 'seq', `step-${k}.json`), 'utf8')) as {
      cost: number | null;
      agent: {
        exit_code: number;
        timed_out: boolean;
        wall_time_s: number;
        trajectory: string | null;
        cost_usd: number | null;
      };
    };
  // A non-zero exit is the agent's outcome, not an infrastructure failure.
  assert.equal(rec(1).agent.exit_code, 3);
  assert.equal(rec(1).agent.timed_out, false);
  assert.ok(rec(1).agent.wall_time_s >= 0);
  assert.equal(rec(1).agent.cost_usd, 0.42);
  assert.equal(rec(1).cost, 0.42);
  assert.ok(existsSync(join(runDir, rec(1).agent.trajectory ?? 'missing')));
  assert.equal(rec(2).agent.trajectory, null);
  // The step's patch is the agent's change and nothing of ChainLens's: the predicted files only.
  for (const k of [1, 2, 3]) {
    const patch = readFileSync(join(runDir, 'agent', chainDir, 'scripted', 'seq', `step-${k}`, 'patch.diff'), 'utf8');
    const files = (p: string) => [...p.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]);
    assert.deepEqual(files(patch), files(readFileSync(join(ROOT, 'demo/steps', String(k), 'predicted.patch'), 'utf8')));
  }
});

test('an agent that leaves no change at a step has an empty patch there, never graded, as a prediction with an empty model_patch is; the next step starts where it started', () => {
  const runDir = join(root, 'empty-step-batch');
  // Step 2 of the demo: the agent leaves nothing; the predictions say the same with an empty patch.
  const predictions = join(root, 'empty-step-2.jsonl');
  writeFileSync(
    predictions,
    readFileSync(DEMO_PREDICTIONS, 'utf8')
      .trim()
      .split('\n')
      .map((line, i) => JSON.stringify({ ...JSON.parse(line), ...(i === 1 ? { model_patch: '' } : {}) }))
      .join('\n') + '\n',
  );
  const lane = seqAgainstPredictions(runDir, predictions, `[ "$CHAINLENS_STEP" = 2 ] || ${DEMO_AGENT}`);
  assert.equal(lane('scripted').length, 3);
  assert.deepEqual(lane('scripted'), lane('recorded'));
  assert.deepEqual(
    lane('scripted').map(([, v]) => (v as unknown[])[0]),
    ['unresolved', 'empty_patch', 'unresolved'],
    batchErrors(runDir),
  );
  // The same from `agent run`: the step's own words, and its end is its start.
  const run = agentRun('no-change', 'seq', 'true', [], 1);
  assert.match(run.stdout, /1\. tiny__calc-1: empty_patch \(agent exit 0/);
  const runId = /agent run (\S+) /.exec(run.stdout)![1];
  assert.equal(
    stepEnd(run.dir, run.stdout, 1),
    git(run.dir, 'rev-parse', `refs/chainlens/${runId}/step-1/start`).trim(),
  );
});

test('seq+mem: step 2 finds what step 1 wrote to the memory directory, seq does not; the contract environment is set and untracked files are the patch', () => {
  const agent = [
    'if [ -f "$CHAINLENS_MEMORY_DIR/note" ]; then cp "$CHAINLENS_MEMORY_DIR/note" seen.txt; fi',
    'echo "from step $CHAINLENS_STEP" > "$CHAINLENS_MEMORY_DIR/note"',
    'env | grep ^CHAINLENS_ | grep -v -e _DIR= -e _TRAJECTORY= -e _STATEMENT= | sort > env-$CHAINLENS_STEP.txt',
    'cp "$CHAINLENS_PROBLEM_STATEMENT" problem-$CHAINLENS_STEP.txt',
  ].join('; ');
  const mem = agentRun('seq-mem', 'seq+mem', agent, [], 2);
  const seq = agentRun('seq', 'seq', agent, [], 2);
  assert.equal(mem.show('HEAD', 'seen.txt'), 'from step 1\n');
  assert.equal(seq.show('HEAD', 'seen.txt'), null);
  assert.equal(
    mem.show('HEAD', 'env-2.txt'),
    'CHAINLENS_CHAIN_ID=tiny_calc_chain\nCHAINLENS_INSTANCE_ID=tiny__calc-2\nCHAINLENS_MODE=seq+mem\nCHAINLENS_STEP=2\n',
  );
  assert.equal(seq.show('HEAD', 'problem-1.txt'), 'Bug 1 of the tiny chain');
  // The agent's own files only: ChainLens wrote nothing of its own into the work tree.
  const tree = git(seq.dir, 'ls-tree', '-r', '--name-only', 'HEAD').trim().split('\n');
  assert.deepEqual(tree.filter((f) => !f.startsWith('calc/') && !f.startsWith('tests/') && f !== 'README.md').sort(), [
    'env-1.txt',
    'env-2.txt',
    'problem-1.txt',
    'problem-2.txt',
  ]);
});

test('oracle: every step starts from base plus the gold patches of the steps before it, none of the agent own earlier files', () => {
  const run = agentRun('oracle', 'oracle', 'cp calc/ops.py ops-at-$CHAINLENS_STEP.txt; ls > ls-$CHAINLENS_STEP.txt');
  // The expected starts: base, then each gold patch (and its test patch) on top, applied by git here.
  const scratch = join(root, 'oracle-expected');
  git(root, 'clone', '-q', tiny.repo, scratch);
  for (let k = 1; k <= 3; k++) {
    const end = stepEnd(run.dir, run.stdout, k);
    assert.equal(
      gitShow(run.dir, end, `ops-at-${k}.txt`),
      readFileSync(join(scratch, 'calc/ops.py'), 'utf8'),
      `step ${k}`,
    );
    const listed = gitShow(run.dir, end, `ls-${k}.txt`)!;
    for (let j = 1; j < k; j++) assert.doesNotMatch(listed, new RegExp(`ops-at-${j}`), `step ${k} starts from gold`);
    const fix = tiny.raw.bug_fixes[k - 1];
    execFileSync('git', ['apply'], { cwd: scratch, input: fix.test_patch });
    execFileSync('git', ['apply'], { cwd: scratch, input: fix.patch });
  }
});

test('an agent outliving --agent-timeout is killed with its process group (host) or its container, and graded on what it left', () => {
  const marker = `chainlens-agent-timeout-${process.pid}`;
  for (const place of ['host', 'container']) {
    const agent = `echo partial > partial.txt; (sleep 600; : ${marker}) & sleep 601; : ${marker}`;
    const run = agentRun(`timeout-${place}`, 'seq', agent, ['--agent-timeout', '2', '--agent-in', place], 1);
    assert.match(run.stdout, /tiny__calc-1: unresolved \(agent timed out/);
    assert.equal(run.show('HEAD', 'partial.txt'), 'partial\n');
    const left = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.trim();
    assert.equal(left, '', `${place}: processes of the timed-out agent are left`);
  }
});

test('isolation: an agent in its container searching every file it can reach and every git object finds no gold line, test-patch line or FAIL_TO_PASS id', () => {
  const sha = (s: string) => createHash('sha256').update(s.trim()).digest('hex');
  // Lines of the answers that only the answers hold: not in the base tree, and naming the chain's
  // own code (a pytest idiom such as `with pytest.raises(ValueError):` is in any pytest install).
  const baseLines = new Set(
    git(tiny.repo, 'grep', '-h', '-e', '.', 'HEAD', '--', '.')
      .split('\n')
      .map((l) => l.replace(/^HEAD:/, '').trim()),
  );
  const added = (patch: string) =>
    patch
      .split('\n')
      .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
      .map((l) => l.slice(1).trim())
      .filter((l) => l.length >= 16 && !baseLines.has(l) && /\b(div|add|ratio|division|calc)\b/.test(l));
  const needles = tiny.raw.bug_fixes.flatMap((b) => {
    const fix = b as typeof b & { FAIL_TO_PASS: string | string[] };
    const f2p = Array.isArray(fix.FAIL_TO_PASS) ? fix.FAIL_TO_PASS : (JSON.parse(fix.FAIL_TO_PASS) as string[]);
    return [...added(b.patch), ...added(b.test_patch), ...f2p];
  });
  assert.ok(needles.length >= 9, `${needles.length} needles`);
  const script = readFileSync(join(ROOT, 'test/fixtures/agent/searchAnswers.py')).toString('base64');
  const agent = `[ "$CHAINLENS_STEP" = 1 ] || exit 0; echo ${script} | base64 -d > "$HOME/search.py" && NEEDLES=${[...new Set(needles.map(sha))].join(',')} CONTROL=${sha('Bug 1 of the tiny chain')} python3 "$HOME/search.py"`;
  // Searched at step 1, when every later step's answers exist and none may be reachable.
  const run = agentRun('isolation', 'seq', agent);
  const report = JSON.parse(run.show(stepEnd(run.dir, run.stdout, 1), 'isolation.json') ?? '{}') as {
    found: string[];
    control: string[];
    scanned: number;
    docker_socket: boolean;
    mounts: string[];
  };
  assert.deepEqual(report.found, [], 'answers within the agent reach');
  assert.deepEqual(report.control, ['/chainlens/problem_statement.md'], 'the search finds what is there');
  assert.ok(report.scanned > 1000, `only ${report.scanned} files scanned`);
  assert.equal(report.docker_socket, false);
  assert.deepEqual(report.mounts, [
    '/chainlens/memory',
    '/chainlens/problem_statement.md',
    '/chainlens/trajectory',
    '/chainlens/worktree',
  ]);
});

/** The patch each agent step left, by lane and step (what a resumed lane replays). */
function agentPatches(runDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const base = join(runDir, 'agent');
  for (const rel of readdirSync(base, { recursive: true, encoding: 'utf8' }))
    if (rel.endsWith('patch.diff')) out[rel] = readFileSync(join(base, rel), 'utf8');
  return out;
}

test('batch --agent killed with SIGKILL at random moments resumes to the records and patches of an uninterrupted run; seq+mem memory is restored; nothing is left running', async () => {
  const marker = `chainlens-agent-resume-${process.pid}`;
  // The memory's content at each step goes into the patch: a step run again after a kill that
  // did not get its start memory back would leave a different patch.
  const agent = `: ${marker}; sleep 0.5; ${DEMO_AGENT}; echo "$CHAINLENS_STEP" >> "$CHAINLENS_MEMORY_DIR/log"; cp "$CHAINLENS_MEMORY_DIR/log" memory-at-end.txt`;
  const args = (runDir: string) => [
    'batch',
    DEMO_CHAIN,
    '--run-dir',
    runDir,
    '--repo',
    demoRepo(),
    '--agent',
    `scripted=${agent}`,
    '--agent-in',
    'host',
    '--mode',
    'seq,seq+mem',
    '--workers',
    '2',
    '--json',
  ];
  const reference = join(root, 'resume-reference');
  const whole = cli(args(reference));
  assert.equal(whole.code, 0, whole.stderr);
  const expected = batchVerdicts(reference);
  assert.equal(Object.keys(expected).length, 6);
  const expectedPatches = agentPatches(reference);
  assert.match(Object.entries(expectedPatches).find(([k]) => k.includes('seq+mem/step-3'))![1], / 1\n 2\n\+3\n/);

  const seed = testSeed();
  const rand = seededRandom(seed);
  const runDir = join(root, 'resume-killed');
  const pids: number[] = [];
  for (let kill = 0; kill < 5; kill++) {
    const child = spawn(process.execPath, [builtCli(), ...args(runDir)], {
      env: { ...process.env, CHAINLENS_DATA: dataDir },
      stdio: 'ignore',
    });
    pids.push(child.pid!);
    const timer = setTimeout(() => child.kill('SIGKILL'), 500 + Math.floor(rand() * 5000));
    await new Promise((resolve) => child.on('close', resolve));
    clearTimeout(timer);
  }
  const last = cli(args(runDir));
  assert.equal(last.code, 0, `seed ${seed}: ${last.stderr}`);
  assert.deepEqual(batchVerdicts(runDir), expected, `seed ${seed}`);
  assert.deepEqual(agentPatches(runDir), expectedPatches, `seed ${seed}`);
  assert.equal(spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.trim(), '', 'agents left running');
  const left = execFileSync(
    'docker',
    ['ps', '-a', '--filter', 'label=chainlens.managed=true', '--format', '{{.Label "chainlens.pid"}}'],
    {
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((pid) => pids.includes(Number(pid)));
  assert.deepEqual(left, [], `seed ${seed}: containers of killed batches left behind`);
});

test('CodeThread: an agent run under AA writes PR1 (graded by the PR1 filter) and PR2; under HA PR1 is the human one; codethread report reads both', async () => {
  const repo = demoRepoWithFixCommits();
  try {
    const tasks = join(root, 'codethread-tasks.jsonl');
    const built = cli([
      'codethread',
      'build',
      DEMO_CHAIN,
      '--repo',
      repo.dir,
      '--out',
      tasks,
      '--instances',
      'chainlens-demo__invoicekit-101',
    ]);
    assert.equal(built.code, 0, built.stderr);
    // The scripted agent writes each step's gold patch (kept beside the test, not in its work tree).
    const task = JSON.parse(readFileSync(tasks, 'utf8').split('\n')[0]) as { bug_fixes: { patch: string }[] };
    task.bug_fixes.forEach((b, i) => writeFileSync(join(root, `ct-gold-${i + 1}.patch`), b.patch));
    const agent = `git apply ${root}/ct-gold-$CHAINLENS_STEP.patch`;
    const run = (condition: string) => {
      const dir = join(root, `ct-${condition}`);
      const r = cli([
        'agent',
        'run',
        tasks,
        '--repo',
        repo.dir,
        '--dir',
        dir,
        '--mode',
        'seq',
        '--condition',
        condition,
        '--agent-in',
        'host',
        '--agent',
        agent,
      ]);
      assert.equal(r.code, 0, r.stderr);
      return { dir, stdout: r.stdout };
    };
    const aa = run('AA');
    assert.match(aa.stdout, /2\/2 step\(s\) resolved/);
    assert.match(aa.stdout, /1\. \S+: resolved \(agent exit 0/);
    const ha = run('HA');
    assert.match(ha.stdout, /1\. \S+: resolved \(PR1 by the original developer/);
    assert.match(ha.stdout, /2\. \S+: resolved \(agent exit 0/);
    const report = cli(['codethread', 'report', aa.dir, ha.dir, '--json']);
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /"AA"/);
    assert.match(report.stdout, /"HA"/);
  } finally {
    repo.remove();
  }
});
