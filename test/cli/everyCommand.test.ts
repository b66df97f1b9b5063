// Every command and subcommand of the CLI as a user runs it: `node dist/cli.js …` from the build a
// user gets (on Node 20, dist/cli-main.cjs through V8's code cache; on 22, dist/cli/main.mjs),
// spawned as its own process, never the code in-process. Each prints its own `--help`, and each
// does one real job on the demo chain or a fixture, with a real git and Docker engine. The list of
// commands is read from the built CLI's own help, so a command added without a run here fails.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEMO_PREDICTIONS, ROOT, demoRepo } from '../helpers/demoRepo';
import { buildTaskRepo } from '../helpers/sweciTask';
import { git } from '../helpers/tinyChain';

const BIN = join(ROOT, 'dist/cli.js');
const DEMO = join(ROOT, 'demo/chain.json');
const work = mkdtempSync(join(tmpdir(), 'chainlens-every-command-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd = work): Ran {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: process.env, timeout: 300_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A run that must succeed: exit 0, no internal error, what it printed. */
function ok(args: string[], cwd = work): Ran {
  const r = cli(args, cwd);
  assert.equal(r.code, 0, `chainlens ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /internal error/, `chainlens ${args.join(' ')}`);
  return r;
}

/** The names a help text's table lists: lines of two spaces, a name, two spaces, its summary. */
const tableNames = (help: string) => [...help.matchAll(/^ {2}([a-z][\w-]*) {2,}\S/gm)].map((m) => m[1]);

/** An MCP server the CLI serves on stdio, asked for its tools by the real MCP client. */
async function mcpTools(args: string[]): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'every-command', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

/** What was run for real, by command line: checked against the built CLI's help at the end. */
const ranFor = new Set<string>();
const real = (name: string, body: () => unknown) =>
  test(`chainlens ${name}: a real run`, async () => {
    await body();
    ranFor.add(name);
  });

test('the bin is built', () => assert.ok(existsSync(BIN), 'dist/cli.js (npm run build)'));

const repo = () => demoRepo();
const seq = join(work, 'seq');
const oracleReport = join(work, 'oracle.json');
const seqReport = join(work, 'seq.json');

real('validate', () => assert.match(ok(['validate', DEMO]).stdout, /valid/));

real('checkout', () => {
  ok(['checkout', DEMO, '--repo', repo(), '--dir', seq, '--mode', 'seq']);
  assert.ok(existsSync(join(seq, 'invoicekit')), 'the demo repository is checked out');
});

real('status', () => assert.match(ok(['status', '--dir', seq]).stdout, /chainlens-demo__invoicekit-101/));

real('submit', () => {
  git(seq, 'apply', join(ROOT, 'demo/steps/1/predicted.patch'));
  assert.match(ok(['submit', '--dir', seq]).stdout, /step 2 of 3/);
});

real('replay', () =>
  ok(['replay', DEMO, '--repo', repo(), '--dir', join(work, 'replay'), '--mode', 'oracle', '--predictions', 'gold']),
);

real('eval', () => {
  const r = ok([
    'eval',
    DEMO,
    '--repo',
    repo(),
    '--dir',
    join(work, 'eval-oracle'),
    '--mode',
    'oracle',
    '--predictions',
    'gold',
    '--steps',
    '1',
    '--report',
    oracleReport,
  ]);
  assert.match(r.stdout, /resolved/);
  ok([
    'eval',
    DEMO,
    '--repo',
    repo(),
    '--dir',
    join(work, 'eval-seq'),
    '--mode',
    'seq',
    '--predictions',
    DEMO_PREDICTIONS,
    '--steps',
    '1',
    '--report',
    seqReport,
  ]);
});

real('compare', () => assert.match(ok(['compare', oracleReport, seqReport]).stdout, /invoicekit-101/));

real('grade', () => {
  assert.match(ok(['grade', '--parser', 'list']).stdout, /pytest/);
  const log = join(work, 'pytest.log');
  writeFileSync(
    log,
    [
      '>>>>> Start Test Output',
      'PASSED tests/test_ops.py::test_add',
      'FAILED tests/test_ops.py::test_sub - boom',
      '>>>>> End Test Output',
    ].join('\n'),
  );
  const f2p = join(work, 'f2p.json');
  writeFileSync(f2p, '["tests/test_ops.py::test_add"]');
  const p2p = join(work, 'p2p.json');
  writeFileSync(p2p, '[]');
  const r = ok([
    'grade',
    '--log',
    log,
    '--profile',
    'swebench-v5',
    '--parser',
    'pytest',
    '--f2p',
    f2p,
    '--p2p',
    p2p,
    '--json',
  ]);
  assert.deepEqual(JSON.parse(r.stdout).tests_status.FAIL_TO_PASS.success, ['tests/test_ops.py::test_add']);
});

real('analyze', () => {
  const r = ok([
    'analyze',
    '--patch',
    join(ROOT, 'demo/steps/1/predicted.patch'),
    '--gold',
    join(ROOT, 'demo/steps/1/gold.patch'),
    '--repo',
    repo(),
    '--json',
  ]);
  assert.ok(JSON.parse(r.stdout));
});

real('labels agree', () => {
  const label = {
    chain: 'c',
    step: 1,
    instance: 'i-1',
    file: 'a.py',
    symbol: 'f',
    range: { startLine: 1, endLine: 2 },
    label: 'EQUIVALENT',
    rationale: 'same',
    labeller: 'a',
    source: 'human',
    time: '2025-03-01T10:00:00+01:00',
  };
  // Two labellers of one target: agreement needs a labeller on each side.
  const a = join(work, 'labels-a.jsonl');
  const b = join(work, 'labels-b.jsonl');
  writeFileSync(a, JSON.stringify(label) + '\n');
  writeFileSync(b, JSON.stringify({ ...label, labeller: 'b' }) + '\n');
  assert.equal(JSON.parse(ok(['labels', 'agree', a, b, '--json']).stdout).n, 1);
});

real('trajectory', () =>
  assert.match(
    ok(['trajectory', join(ROOT, 'test/fixtures/trajectories/sweagent_demonstration_function_calling_simple.traj')])
      .stdout,
    /step/i,
  ),
);

const codethreadRepo = join(work, 'codethread-repo');
const tasks = join(work, 'tasks.jsonl');
real('codethread build', () => {
  git(work, 'clone', '-q', repo(), codethreadRepo);
  assert.match(ok(['codethread', 'build', DEMO, '--repo', codethreadRepo, '--out', tasks]).stdout, /built \d+ task/);
});

real('codethread report', () => {
  const first = JSON.parse(readFileSync(tasks, 'utf8').split('\n')[0]) as { continuous_id: string };
  const dir = join(work, 'codethread-run');
  ok([
    'checkout',
    tasks,
    '--chain-id',
    first.continuous_id,
    '--repo',
    codethreadRepo,
    '--dir',
    dir,
    '--condition',
    'HH',
  ]);
  ok(['codethread', 'report', dir]);
});

const runDir = join(work, 'batch');
real('batch', () => {
  const r = ok(['batch', DEMO, '--run-dir', runDir, '--repo', repo(), '--predictions', 'gold', '--mode', 'oracle']);
  assert.match(r.stdout, /3\/3 step evaluations recorded/);
});

real('report', () => assert.match(ok(['report', runDir]).stdout, /gold\s+oracle\s+3\/3/));
// Gold under Oracle has no chain error: the command reads the run and says so (its containers are
// tested on planted chain errors in test/container/chainErrorEvidence.test.ts).
real('evidence', () => assert.match(ok(['evidence', runDir]).stdout, /^0 chain error\(s\) with evidence/));

real('mcp', async () =>
  assert.ok((await mcpTools(['mcp', '--dir', seq])).includes('get_current_step'), 'the run tools'),
);

// A study of the demo's two-step chain, its files in one folder of this test.
const studyDir = join(work, 'study');
const study = join(studyDir, 'study.json');
const packs = join(work, 'packs');
const rows = join(work, 'rows');
real('study validate', () => {
  mkdirSync(studyDir);
  writeFileSync(
    study,
    JSON.stringify({
      chainlensStudy: 1,
      name: 'every-command',
      tasks: [
        {
          id: 'inv',
          chain: join(ROOT, 'demo/chain.jsonl'),
          chainId: 'chainlens-demo_invoicekit_20240312_two_step',
          repo: repo(),
          predictions: DEMO_PREDICTIONS,
        },
      ],
      conditions: [{ name: 'HH', authors: ['human', 'human'] }],
      participants: ['p01'],
      assignment: { kind: 'explicit', sessions: { p01: [{ task: 'inv', condition: 'HH' }] } },
    }),
  );
  assert.match(ok(['study', 'validate', study]).stdout, /valid study/);
});
real('study start', () => assert.match(ok(['study', 'start', study, '--participant', 'p01']).stdout, /task 1 of 1/));
real('study submit', () =>
  assert.match(ok(['study', 'submit', study, '--participant', 'p01', '--no-grade']).stdout, /submitted step 1/),
);
real('study export', () => {
  ok(['study', 'export', study, '--out', rows]);
  assert.ok(existsSync(join(rows, 'rows.jsonl')));
});
real('study report', () => ok(['study', 'report', join(rows, 'rows.jsonl')]));
real('study pack', () => assert.match(ok(['study', 'pack', study, '--out', packs]).stdout, /pack\(s\)/));
real('study withdraw', () =>
  assert.match(ok(['study', 'withdraw', study, '--participant', 'p01']).stdout, /withdrew 'p01'/),
);

// A SWE-CI task in SWE-CI's dataset layout, from the calckit fixture; the base image already
// loaded stands in for the task's archive (--image), so no image is saved and loaded here.
const sweci = join(work, 'sweci-work');
real('sweci init', () => {
  const ds = join(work, 'sweci-dataset');
  const commits = buildTaskRepo(join(work, 'calckit', 'calckit'));
  mkdirSync(join(ds, 'metadata'), { recursive: true });
  writeFileSync(
    join(ds, 'metadata', 'default.csv'),
    `task_id,current_sha,target_sha,test_gap,repo_name\ncalckit-1,${commits.c0},${commits.c4},4,calckit/calckit\n`,
  );
  mkdirSync(join(ds, 'data', 'calckit-1'), { recursive: true });
  spawnSync('python3', ['-m', 'zipfile', '-c', join(ds, 'data/calckit-1/code.zip'), join(work, 'calckit', 'calckit')]);
  writeFileSync(join(ds, 'data/calckit-1/image.tar.gz'), '');
  const r = ok([
    'sweci',
    'init',
    ds,
    '--task',
    'calckit-1',
    '--dir',
    sweci,
    '--limit',
    '3',
    '--image',
    'chainlens/base:bookworm',
  ]);
  assert.match(r.stdout, /p\*\s+\d+ tests pass at the oracle/);
});
real('sweci gap', () => assert.match(ok(['sweci', 'gap', '--dir', sweci]).stdout, /gap \d+/));
real('sweci requirement', () => {
  const file = join(work, 'requirement.md');
  writeFileSync(
    file,
    '<requirements><requirement><location>src/calckit/ops.py: div</location><description>div is missing</description>' +
      '<contract>`div` divides two numbers</contract><acceptance>tests/test_ops.py::test_div</acceptance></requirement></requirements>\n',
  );
  ok(['sweci', 'requirement', '--dir', sweci, '--file', file]);
  assert.match(ok(['sweci', 'requirement', '--dir', sweci]).stdout, /divides two numbers/);
});
real('sweci submit', () => assert.match(ok(['sweci', 'submit', '--dir', sweci]).stdout, /iteration 1: \d+ passing/));
real('sweci run', () => {
  const r = ok([
    'sweci',
    'run',
    '--dir',
    sweci,
    '--architect',
    'echo "<r><i><location>src</location><description>d</description><contract>keep the tests passing</contract><acceptance>all</acceptance></i></r>" > "$SWECI_REQUIREMENT"',
    '--programmer',
    'true',
    '--iterations',
    '1',
  ]);
  assert.match(r.stdout, /task calckit-1: 2 iteration\(s\)/);
});
real('sweci score', () => assert.match(ok(['sweci', 'score', sweci]).stdout, /calckit-1/));
real('sweci mcp', async () =>
  assert.ok((await mcpTools(['sweci', 'mcp', '--dir', sweci])).includes('get_gap'), 'the SWE-CI tools'),
);

test('every command and subcommand the built CLI lists prints its own --help and had a real run above', () => {
  const top = ok(['--help']);
  const names: string[] = [];
  for (const command of tableNames(top.stdout)) {
    const help = ok([command, '--help']);
    const subs = tableNames(help.stdout);
    const isGroup = help.stdout.startsWith(`usage: chainlens ${command} <subcommand>`);
    if (!isGroup) {
      assert.match(help.stdout, new RegExp(`^usage: chainlens ${command}\\b`), `${command} --help`);
      names.push(command);
      continue;
    }
    for (const sub of subs) {
      assert.match(ok([command, sub, '--help']).stdout, new RegExp(`^usage: chainlens ${command} ${sub}\\b`));
      names.push(`${command} ${sub}`);
    }
  }
  assert.ok(names.length >= 30, `the help lists the commands (${names.length})`);
  assert.deepEqual(
    names.filter((n) => !ranFor.has(n)),
    [],
    'commands with no real run here (or whose run failed)',
  );
  assert.equal(resolve(BIN), BIN);
});
