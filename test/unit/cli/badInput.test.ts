// Bad input, every way the CLI was found to mishandle it: each case asserts the exit code the
// README gives (1 bad input or state, 2 usage), a message naming the file and field (or the
// flag), no stack trace, and nothing written (the directory, the mirror cache included, is the
// same before and after). Cases that depend on being a real process (a closed pipe, the bytes a
// terminal receives) run the bundled CLI as one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../helpers/cli';
import { builtCli, runBuiltCli } from '../../helpers/builtCli';
import { snapshotDir } from '../../helpers/dirSnapshot';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { openWorkspace } from '../../../src/infra/run/workspace';
import { chainReport } from '../../../src/core/metrics/chainReport';

let tiny: TinyChain;
let root: string;

const BOM = '\ufeff';
const STACK = /^\s+at .+[(:]\d+|internal error|node:internal/m;

before(() => {
  tiny = makeTinyChain();
  root = tiny.root;
  // Mirrors of --repo URLs would go here: inside the snapshot, so a write there is seen too.
  process.env.CHAINLENS_CACHE = join(root, 'cache');
});

after(() => tiny.cleanup());

function write(name: string, content: string | object): string {
  const path = join(root, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** The tiny chain's raw ChainSWE object, changed by `edit`. */
function chainWith(edit: (raw: ReturnType<typeof rawChain>) => void) {
  const raw = rawChain();
  edit(raw);
  return raw;
}

function rawChain() {
  return structuredClone(tiny.raw) as {
    continuous_id: string;
    docker_image?: string;
    swebench_instance_ids: string[];
    bug_fixes: { patch: string; test_patch: string; swebench_instance_id: string; test_cmds: string }[];
  };
}

/** The tiny chain's first step as a SWE-bench instance. */
function instance(overrides: Record<string, unknown> = {}) {
  const fix = tiny.raw.bug_fixes[0] as Record<string, unknown>;
  return {
    repo: 'tiny/calc',
    instance_id: 'tiny__calc-1',
    base_commit: tiny.baseCommit,
    patch: fix.patch,
    test_patch: fix.test_patch,
    problem_statement: 'bug 1',
    FAIL_TO_PASS: fix.FAIL_TO_PASS,
    PASS_TO_PASS: fix.PASS_TO_PASS,
    ...overrides,
  };
}

/** Runs the command in-process and checks the refusal: exit code, message, no stack trace, nothing written. */
async function refused(args: string[], code: 1 | 2, message: RegExp): Promise<CliResult> {
  const before = snapshotDir(root);
  const r = await runCli(args, root);
  const output = r.stdout + r.stderr;
  assert.equal(r.code, code, `exit code of chainlens ${args.join(' ')}:\n${output}`);
  assert.match(output, message);
  assert.doesNotMatch(output, STACK);
  assert.deepEqual(snapshotDir(root), before, `chainlens ${args.join(' ')} changed files on disk`);
  return r;
}

function checkoutArgs(chainFile: string, dir: string, ...extra: string[]) {
  return ['checkout', chainFile, '--repo', tiny.repo, '--dir', join(root, dir), ...extra];
}

function evalArgs(chainFile: string, dir: string, ...extra: string[]) {
  return [
    'eval',
    chainFile,
    '--repo',
    tiny.repo,
    '--dir',
    join(root, dir),
    '--mode',
    'seq',
    '--predictions',
    'gold',
    ...extra,
  ];
}

// --- chain files ----------------------------------------------------------------------------

test('validate and checkout of an empty instance list: exit 1 naming the file and $, no TypeError', async () => {
  const file = write('empty.json', '[]');
  await refused(['validate', file], 1, /empty\.json: \$: the list is empty/);
  await refused(checkoutArgs(file, 'w-empty'), 1, /empty\.json: \$: the list is empty/);
});

test('validate refuses a gold patch writing ../evil and a test patch writing into .git/hooks, naming each field', async () => {
  const file = write(
    'escape.json',
    chainWith((c) => {
      c.bug_fixes[0].patch =
        'diff --git a/../evil b/../evil\nnew file mode 100644\n--- /dev/null\n+++ b/../evil\n@@ -0,0 +1 @@\n+x\n';
      c.bug_fixes[1].test_patch =
        'diff --git a/.git/hooks/post-checkout b/.git/hooks/post-checkout\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+touch /tmp/pwned\n';
    }),
  );
  const r = await refused(
    ['validate', file],
    1,
    /escape\.json: \$\.bug_fixes\[0\]\.patch: writes outside the repository or into \.git: "\.\.\/evil"/,
  );
  assert.match(
    r.stdout,
    /escape\.json: \$\.bug_fixes\[1\]\.test_patch: writes outside the repository or into \.git: "\.git\/hooks\/post-checkout"/,
  );
  await refused(checkoutArgs(file, 'w-escape'), 1, /\$\.bug_fixes\[0\]\.patch/);
});

test('validate refuses text that is not a patch, an invalid image name and a newline in an instance id', async () => {
  const file = write(
    'fields.json',
    chainWith((c) => {
      c.docker_image = 'Not An Image!';
      c.bug_fixes[0].patch = 'please apply the usual fix\n';
      c.bug_fixes[2].swebench_instance_id = 'tiny__calc-3\nINJECTED';
      c.swebench_instance_ids[2] = 'tiny__calc-3\nINJECTED';
    }),
  );
  const r = await refused(['validate', file], 1, /\$\.docker_image: 'Not An Image!' is not a Docker image name/);
  assert.match(r.stdout, /\$\.bug_fixes\[0\]\.patch: is not a unified diff/);
  assert.match(r.stdout, /\$\.bug_fixes\[2\]\.swebench_instance_id: instance id must not contain a newline/);

  const swe = write('instances.json', [
    instance({ instance_id: 'a\nb' }),
    instance({ instance_id: 'tiny__calc-9', image: 'tiny/Calc:latest' }),
  ]);
  const s = await refused(
    ['validate', swe],
    1,
    /instances\.json: \$\[0\]\.instance_id: instance id must not contain a newline/,
  );
  assert.match(s.stdout, /instances\.json: \$\[1\]\.image: 'tiny\/Calc:latest' is not a Docker image name/);

  // SWE-bench Pro instances (their own fields mark them) are held to the same rules.
  const proFile = write('pro.json', [
    instance({
      instance_id: 'instance_tiny__calc-1',
      fail_to_pass: "['tests/test_ops.py::test_div_zero']",
      pass_to_pass: '[]',
      dockerhub_tag: 'tiny calc',
      patch: 'diff --git a/x/../../evil b/x/../../evil\n--- a/x/../../evil\n+++ b/x/../../evil\n@@ -1 +1 @@\n-a\n+b\n',
    }),
  ]);
  const p = await refused(['validate', proFile], 1, /pro\.json: \$\[0\]\.patch: writes outside the repository/);
  assert.match(
    p.stdout,
    /pro\.json: \$\[0\]\.dockerhub_tag: 'jefzda\/sweap-images:tiny calc' is not a Docker image name/,
  );
});

// --- run arguments: refused before anything is cloned ------------------------------------------

test('eval --steps abc, 7, 3-1 and 0 are usage errors before anything is cloned or replayed', async () => {
  await refused(evalArgs(tiny.chainFile, 'w-steps', '--steps', 'abc'), 2, /--steps 'abc' is not a step list/);
  await refused(
    evalArgs(tiny.chainFile, 'w-steps', '--steps', '7'),
    2,
    /--steps names step 7, but the chain has steps 1, 2, 3/,
  );
  await refused(evalArgs(tiny.chainFile, 'w-steps', '--steps', '3-1'), 2, /--steps '3-1' runs backwards/);
  await refused(evalArgs(tiny.chainFile, 'w-steps', '--steps', '0'), 2, /--steps names step 0/);
});

test('eval refuses a bad --image, --report directory, --repo-path-in-image and a chain naming no image before cloning', async () => {
  await refused(
    evalArgs(tiny.chainFile, 'w-img', '--image', 'Bad:Image:Name'),
    2,
    /--image: 'Bad:Image:Name' is not a Docker image name/,
  );
  await refused(
    evalArgs(tiny.chainFile, 'w-img', '--report', join(root, 'no-such-dir', 'r.json')),
    2,
    /--report .*no-such-dir/,
  );
  await refused(
    evalArgs(tiny.chainFile, 'w-img', '--repo-path-in-image', 'testbed'),
    2,
    /--repo-path-in-image must be an absolute path/,
  );
  const noImage = write(
    'no-image.json',
    chainWith((c) => delete c.docker_image),
  );
  await refused(evalArgs(noImage, 'w-img'), 2, /names no docker_image; give one with --image/);
});

test('checkout --step 0 and a Seq start after a human step are usage errors before cloning', async () => {
  await refused(
    checkoutArgs(tiny.chainFile, 'w-step', '--step', '0'),
    2,
    /--step: the chain has no step 0; its steps are 1, 2, 3/,
  );
  await refused(checkoutArgs(tiny.chainFile, 'w-step', '--step', 'two'), 2, /--step must be a step number/);
  await refused(
    checkoutArgs(tiny.chainFile, 'w-step', '--step', '2', '--mode', 'seq'),
    2,
    /step 1 is authored by a person/,
  );
});

test('a failed Oracle checkout leaves nothing behind: no clone, no created parents, an existing empty directory stays empty', async () => {
  const broken = write(
    'broken-gold.json',
    chainWith((c) => {
      c.bug_fixes[0].patch = c.bug_fixes[0].patch.replace('return a / b', 'return a // b');
    }),
  );
  await refused(
    checkoutArgs(broken, 'new-parent/w-oracle', '--mode', 'oracle', '--step', '2'),
    1,
    /gold patch of step 1 \(tiny__calc-1\) does not apply/,
  );
  mkdirSync(join(root, 'w-empty-dir'));
  await refused(checkoutArgs(broken, 'w-empty-dir', '--mode', 'oracle', '--step', '2'), 1, /does not apply/);
});

test('unfinished clones of killed checkouts are removed when their process is gone, never while it runs', async () => {
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  }).stdout;
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    const deadPartial = join(root, `.w-partial.chainlens-partial-${dead}`);
    const livePartial = join(root, `.w-other.chainlens-partial-${sleeper.pid}`);
    mkdirSync(join(deadPartial, '.git'), { recursive: true });
    mkdirSync(join(livePartial, '.git'), { recursive: true });
    const r = await runCli(checkoutArgs(tiny.chainFile, 'w-partial'), root);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /removed .*chainlens-partial-\d+, the unfinished clone of a checkout that was killed/);
    const after = snapshotDir(root);
    assert.equal(after[`.w-partial.chainlens-partial-${dead}`], undefined, "the dead process's partial clone is gone");
    assert.equal(after[`.w-other.chainlens-partial-${sleeper.pid}`], 'dir', "a running checkout's partial clone stays");
  } finally {
    sleeper.kill();
  }
});

// --- flags and positionals -------------------------------------------------------------------

test('extra positional arguments and repeated flags are refused (exit 2) by every command', async () => {
  const f = tiny.chainFile;
  await refused(['status', 'extra'], 2, /unexpected argument 'extra'/);
  await refused(['submit', '--dir', root, 'extra'], 2, /unexpected argument 'extra'/);
  await refused(['mcp', '--dir', root, 'extra'], 2, /unexpected argument 'extra'/);
  await refused(['validate', f, f], 2, /unexpected argument/);
  await refused(['compare', 'a.json', 'b.json', 'c.json'], 2, /unexpected argument 'c\.json'/);
  await refused(['grade', '--log', f, '--profile', 'swebench-v5', 'extra'], 2, /unexpected argument 'extra'/);
  await refused(['status', '--dir', root, '--dir', root], 2, /option --dir is given more than once/);
  await refused(['validate', f, '--chain-id', 'a', '--chain-id', 'b'], 2, /option --chain-id is given more than once/);
  await refused(
    checkoutArgs(f, 'w-flags', '--mode', 'seq', '--mode', 'oracle'),
    2,
    /option --mode is given more than once/,
  );
  await refused(['status', '--dir', ''], 2, /option --dir needs a value/);
});

test('grade: a bad --profile, --parser, --eval-type or --repo is a usage error (2)', async () => {
  const log = write(
    'grade.log',
    '>>>>> Start Test Output\nPASSED tests/test_ops.py::test_add\n>>>>> End Test Output\n',
  );
  await refused(['grade', '--log', log, '--profile', 'swebench-v9'], 2, /--profile: unknown value 'swebench-v9'/);
  await refused(
    ['grade', '--log', log, '--profile', 'swebench-v5', '--parser', 'nose'],
    2,
    /--parser: unknown parser 'nose'/,
  );
  await refused(
    ['grade', '--log', log, '--profile', 'swebench-v5', '--eval-type', 'some'],
    2,
    /--eval-type: unknown value 'some'/,
  );
  await refused(
    ['grade', '--log', log, '--profile', 'swebench-v5', '--repo', 'not a repo'],
    2,
    /--repo 'not a repo': expected owner\/name/,
  );
  await refused(['grade', '--log', log, '--profile', 'swebench-v5', '--repo', '../etc'], 2, /--repo '\.\.\/etc'/);
});

test('chain files, grade, compare, labels, predictions, trajectory and analyze read files with a BOM like any other', async () => {
  const chain = write('bom-chain.json', BOM + JSON.stringify(tiny.raw));
  assert.equal((await runCli(['validate', chain], root)).code, 0);
  const jsonl = write('bom-instances.jsonl', BOM + JSON.stringify(instance()) + '\n');
  assert.equal((await runCli(['validate', jsonl], root)).code, 0);

  const log = write(
    'bom.log',
    BOM + '>>>>> Start Test Output\nPASSED tests/test_ops.py::test_add\n>>>>> End Test Output\n',
  );
  const f2p = write('bom-f2p.json', BOM + '["tests/test_ops.py::test_add"]');
  const g = await runCli(['grade', '--log', log, '--profile', 'swebench-v4', '--f2p', f2p, '--json'], root);
  assert.equal(g.code, 0, g.stderr);
  assert.deepEqual(JSON.parse(g.stdout).tests_status.FAIL_TO_PASS.success, ['tests/test_ops.py::test_add']);

  const label = {
    chain: 'tiny_calc_chain',
    step: 1,
    instance: 'tiny__calc-1',
    file: 'calc/ops.py',
    symbol: 'div',
    range: { startLine: 5, endLine: 8 },
    label: 'EQUIVALENT',
    rationale: 'same check',
    labeller: 'a',
    source: 'human',
    time: '2025-03-01T10:00:00+01:00',
  };
  // one labeller per side (labels agree refuses the same labeller on both)
  const labels = write('bom-labels.jsonl', BOM + JSON.stringify(label) + '\n');
  const other = write('bom-labels-b.jsonl', BOM + JSON.stringify({ ...label, labeller: 'b' }) + '\n');
  const l = await runCli(['labels', 'agree', labels, other, '--json'], root);
  assert.equal(l.code, 0, l.stderr);

  const traj = write(
    'bom-preds.jsonl',
    BOM +
      JSON.stringify({
        instance_id: 'tiny__calc-1',
        model_name_or_path: 'm',
        model_patch: tiny.raw.bug_fixes[0].patch,
      }) +
      '\n',
  );
  const t = await runCli(['trajectory', traj], root);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /tiny__calc-1/);

  const report = (mode: 'oracle' | 'seq') =>
    write(
      `bom-${mode}.json`,
      BOM + JSON.stringify(chainReport({ chainId: 'c', runId: mode, mode, profile: 'swebench-v5', steps: [] })),
    );
  const c = await runCli(['compare', report('oracle'), report('seq')], root);
  assert.equal(c.code, 0, c.stderr);

  const preds = write(
    'bom-preds.json',
    BOM +
      JSON.stringify([
        { instance_id: 'tiny__calc-1', model_name_or_path: 'm', model_patch: tiny.raw.bug_fixes[0].patch },
      ]),
  );
  const p = await runCli(
    checkoutArgs(tiny.chainFile, 'w-bom-preds', '--authors', '1=recorded', '--predictions', preds),
    root,
  );
  assert.equal(p.code, 0, p.stderr);
  assert.match(p.stdout, /recorded \(m\)\s+submitted/);

  const patch = write('bom.diff', BOM + tiny.raw.bug_fixes[0].patch);
  const a = await runCli(['analyze', '--patch', patch, '--gold', patch, '--repo', tiny.repo, '--json'], root);
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual(JSON.parse(a.stdout).files.step, ['calc/ops.py']);
});

test('analyze refuses a patch that is not a diff, naming the flag and file', async () => {
  const prose = write('prose.diff', 'I changed div to check for zero.\n');
  await refused(
    ['analyze', '--patch', prose, '--gold', prose, '--repo', tiny.repo],
    1,
    /--patch .*prose\.diff is not a unified diff/,
  );
});

test('trajectory exits 1 when it read no step and no submission', async () => {
  const empty = write('empty.traj', '{}');
  await refused(['trajectory', empty], 1, /nothing could be read from .*empty\.traj/);
});

// --- state of a run ------------------------------------------------------------------------

test('a run state file that breaks its schema is reported with the file and JSON path (exit 1)', async () => {
  const dir = join(root, 'w-state');
  assert.equal((await runCli(checkoutArgs(tiny.chainFile, 'w-state'), root)).code, 0);
  const ws = await openWorkspace(dir);
  const runId = ws.store.currentRunId()!;
  const state = ws.store.loadRun(runId)!;
  writeFileSync(
    join(ws.store.root, 'runs', `${runId}.json`),
    JSON.stringify({ ...state, currentStep: 'two', mode: 'both' }),
  );
  const r = await refused(['status', '--dir', dir], 1, /state file .*\.json is not a valid run/);
  assert.match(r.stderr, /\$\.mode: /);
  assert.match(r.stderr, /\$\.currentStep: /);
});

test('"recovered run" is printed once by the command that recovers an interrupted submit', async () => {
  const dir = join(root, 'w-recover');
  assert.equal((await runCli(checkoutArgs(tiny.chainFile, 'w-recover'), root)).code, 0);
  writeFileSync(join(dir, 'calc', 'ops.py'), '# edited\n');
  const killed = runBuiltCli(['submit', '--dir', dir], { CHAINLENS_FAULT_KILL_AT: 'submit:committed' });
  assert.equal(killed.signal, 'SIGKILL');
  const r = await runCli(['status', '--dir', dir], root);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr.match(/recovered run/g)?.length, 1, r.stderr);
});

// --- what reaches the terminal -------------------------------------------------------------

test('output piped to a reader that went away (| head): no EPIPE trace, the command still ends normally', async () => {
  const dir = join(root, 'w-pipe');
  assert.equal((await runCli(checkoutArgs(tiny.chainFile, 'w-pipe'), root)).code, 0);
  for (const args of [['status', '--dir', dir], ['status', '--dir', dir, '--json'], ['--help']]) {
    const child = spawn(process.execPath, [builtCli(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the first line is written
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|^\s+at /m);
  }
});

test('escape sequences from files reach the terminal neutralised and visible; --json stays JSON that decodes to them', () => {
  const osc = '\u001b]0;owned\u0007\u001b[2J\u001b]52;c;ZWNobyBwd25lZA==\u0007\u009b31m';
  const traj = write(
    'escapes.traj',
    JSON.stringify({
      trajectory: [{ action: `echo hi ${osc}`, observation: `hi ${osc}`, thought: 'x', response: 'x' }],
      info: { submission: '' },
    }),
  );
  const shown = runBuiltCli(['trajectory', traj]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.doesNotMatch(shown.stdout + shown.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  assert.match(shown.stdout, /echo hi \\u001b\]0;owned\\u0007\\u001b\[2J/);

  const step = runBuiltCli(['trajectory', traj, '--step', '0', '--json']);
  assert.equal(step.code, 0, step.stderr);
  assert.doesNotMatch(step.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  assert.equal(JSON.parse(step.stdout).observation, `hi ${osc}`);
});

test('a test name with escapes in a grade summary is shown, not obeyed', async () => {
  const log = write('esc.log', '>>>>> Start Test Output\n>>>>> End Test Output\n');
  const f2p = write('esc-f2p.json', JSON.stringify(['tests/test_x.py::test_\u001b]0;title\u0007']));
  const r = await runCli(['grade', '--log', log, '--profile', 'swebench-v4', '--f2p', f2p], root);
  assert.match(r.stdout, /failed: tests\/test_x\.py::test_\\u001b\]0;title\\u0007/);
  assert.doesNotMatch(r.stdout, /\u001b/);
});

test('an error of the operating system is one line naming the path (exit 1), not a stack trace', async () => {
  // A work tree under a regular file: mkdir fails with ENOTDIR.
  await refused(
    ['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', join(tiny.chainFile, 'sub', 'w')],
    1,
    /chainlens checkout: cannot mkdir .*chain\.json\/sub: a part of the path is not a directory \(ENOTDIR\)/,
  );
});
