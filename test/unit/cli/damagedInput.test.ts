// Damaged state and hostile input that used to exit 70 or hang (issue: "Bad input"): each is a
// one-line error naming the file and field, exit 1 (2 for usage), and nothing written: the run's
// state folder and the directory of the inputs are the same before and after.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../helpers/cli';
import { snapshotDir } from '../../helpers/dirSnapshot';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { openWorkspace } from '../../../src/infra/run/workspace';

let tiny: TinyChain;
const STACK = /^\s+at .+[(:]\d+|internal error|node:internal/m;

before(() => {
  tiny = makeTinyChain();
});
after(() => tiny.cleanup());

/** Runs the command and checks exit code, message, no stack trace, and that `watched` did not change. */
async function refused(
  args: string[],
  code: 1 | 2,
  message: RegExp,
  watched: string[] = [tiny.root],
): Promise<CliResult> {
  const before = watched.map((d) => snapshotDir(d));
  const r = await runCli(args, tiny.root);
  const output = r.stdout + r.stderr;
  assert.equal(r.code, code, `exit code of chainlens ${args.join(' ')}:\n${output}`);
  assert.match(output, message);
  assert.doesNotMatch(output, STACK);
  watched.forEach((d, i) => assert.deepEqual(snapshotDir(d), before[i], `chainlens ${args.join(' ')} changed ${d}`));
  return r;
}

async function checkout(name: string): Promise<{ dir: string; stateDir: string; runFile: string }> {
  const dir = join(tiny.root, name);
  const r = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir]);
  assert.equal(r.code, 0, r.stderr);
  const ws = await openWorkspace(dir);
  return { dir, stateDir: ws.store.root, runFile: join(ws.store.root, 'runs', `${ws.store.currentRunId()}.json`) };
}

test('a run file whose currentStep is not a step of the run: status, status --json and submit name the file and currentStep', async () => {
  const { dir, stateDir, runFile } = await checkout('w-step99');
  const state = JSON.parse(readFileSync(runFile, 'utf8'));
  writeFileSync(runFile, JSON.stringify({ ...state, currentStep: 99 }, null, 2) + '\n');
  for (const args of [['status'], ['status', '--json'], ['submit']])
    await refused([...args, '--dir', dir], 1, /\.json is damaged: currentStep 99 is not a step of the run/, [
      dir,
      stateDir,
    ]);
});

test('a journal with an operation ChainLens does not know is refused by name and kept', async () => {
  const { dir, stateDir } = await checkout('w-journal');
  const journal = join(stateDir, 'journal.json');
  writeFileSync(journal, JSON.stringify({ op: 'teleport', runId: 'x', step: 1, pid: 1, startedAt: 'now' }) + '\n');
  await refused(['status', '--dir', dir], 1, /journal .*journal\.json: op: "teleport" is not an operation/, [
    dir,
    stateDir,
  ]);
  await refused(['submit', '--dir', dir], 1, /journal\.json: op: "teleport"/, [dir, stateDir]);
  assert.ok(existsSync(journal));
});

test('validate on a FIFO and on /dev/zero: refused at once as not a regular file (no hang, no growth)', () => {
  // Outside tiny.root: the other tests snapshot that folder, and reading a FIFO waits for a writer.
  const fifoDir = mkdtempSync(join(tmpdir(), 'chainlens-fifo-'));
  const fifo = join(fifoDir, 'chain.fifo');
  execFileSync('mkfifo', [fifo]);
  after(() => rmSync(fifoDir, { recursive: true, force: true }));
  for (const path of [fifo, '/dev/zero']) {
    // A separate process with a timeout: a hang fails the test instead of stalling the suite.
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(__dirname, '../../../src/cli/bin.ts'), 'validate', path],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(r.signal, null, `validate ${path} hung`);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a regular file`));
  }
});

test('a damaged .git/index: status and submit name it (exit 1), the failed submit leaves no journal, and once the index is rebuilt the step is still current with the work', async () => {
  const { dir, stateDir } = await checkout('w-index');
  writeFileSync(join(dir, 'calc/ops.py'), readFileSync(join(dir, 'calc/ops.py'), 'utf8') + '\n# fixed by hand\n');
  writeFileSync(join(dir, '.git', 'index'), 'not an index at all');
  for (const args of [['status'], ['submit'], ['submit', '--allow-empty']])
    await refused([...args, '--dir', dir], 1, /the git index of .* \(\.git\/index\) is damaged/, [stateDir]);
  assert.equal(existsSync(join(stateDir, 'journal.json')), false, 'a submit that reported failure left its journal');
  execFileSync('sh', ['-c', 'rm .git/index && git reset -q'], { cwd: dir });
  // A journal left behind would have the next command finish the failed submit behind the person's back.
  const r = await runCli(['status', '--dir', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    JSON.parse(r.stdout).steps.map((s: { status: string }) => s.status),
    ['current', 'pending', 'pending'],
  );
  assert.match(readFileSync(join(dir, 'calc/ops.py'), 'utf8'), /# fixed by hand/);
});

test('a checkout whose base_commit the repository does not have leaves nothing in the data directory (no empty locks/)', () => {
  // Its own process and data directory: the data directory must stay exactly as it was (empty).
  const data = mkdtempSync(join(tmpdir(), 'chainlens-data-base-'));
  try {
    const chain = join(tiny.root, 'no-base.json');
    writeFileSync(chain, JSON.stringify({ ...tiny.raw, base_commit: 'f'.repeat(40) }));
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(__dirname, '../../../src/cli/bin.ts'),
        'checkout',
        chain,
        '--repo',
        tiny.repo,
        '--dir',
        join(tiny.root, 'w-no-base'),
      ],
      { encoding: 'utf8', timeout: 120_000, env: { ...process.env, CHAINLENS_DATA: data } },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /commit f{40} is not in the repository/);
    assert.doesNotMatch(r.stderr, STACK);
    assert.deepEqual(readdirSync(data), []);
    assert.equal(existsSync(join(tiny.root, 'w-no-base')), false);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('validate refuses a JSONL holding two chains of one id, as batch does', async () => {
  const file = join(tiny.root, 'twice.jsonl');
  writeFileSync(file, `${JSON.stringify(tiny.raw)}\n${JSON.stringify(tiny.raw)}\n`);
  await refused(['validate', file], 1, /twice\.jsonl:2: chain id 'tiny_calc_chain' is also the id of .*twice\.jsonl:1/);
  await refused(
    ['batch', file, '--run-dir', join(tiny.root, 'batch-twice'), '--repo', tiny.repo, '--predictions', 'gold'],
    1,
    /is also the id of/,
  );
});

test('study report --pair with conditions the rows do not have is a usage error naming them', async () => {
  const row = (condition: string, participant: string) => ({
    study: 's',
    participant,
    task: 't1',
    chain: 'c',
    condition,
    step: 1,
    instanceId: 'i-1',
    author: 'human',
    status: 'submitted',
    applied: true,
    resolved: true,
    f2pPassed: 1,
    f2pTotal: 1,
    p2pPassed: 1,
    p2pTotal: 1,
    wallSeconds: 10,
    activeSeconds: 10,
    pauses: 0,
    testRuns: 1,
    edits: 1,
    reloads: 0,
    overshootLines: 0,
    undershootLines: 0,
    patch: null,
  });
  const rows = join(tiny.root, 'rows.jsonl');
  writeFileSync(rows, [row('HH', 'p1'), row('HA', 'p2')].map((r) => JSON.stringify(r) + '\n').join(''));
  await refused(
    ['study', 'report', rows, '--pair', 'ZZ,YY'],
    2,
    /--pair ZZ,YY: 'ZZ' and 'YY' are not conditions of .*rows\.jsonl \(its conditions: HH, HA\)/,
  );
  await refused(['study', 'report', rows, '--pair', 'HH,YY'], 2, /'YY' is not a condition/);
  const ok = await runCli(['study', 'report', rows, '--pair', 'HH,HA']);
  assert.equal(ok.code, 0, ok.stderr);
});

test('a trajectory with no steps and a numeric submission is refused naming the field, not shown as a submission', async () => {
  const file = join(tiny.root, 'numeric.traj.json');
  writeFileSync(file, JSON.stringify({ info: { submission: 42, exit_status: 'Submitted' }, messages: [] }));
  await refused(
    ['trajectory', file],
    1,
    /"submission" should be a patch \(a string\) or null, found a number \(at \$\.info\.submission\)/,
  );
  await refused(['trajectory', file, '--json'], 1, /\$\.info\.submission/);
});
