// Signals to ChainLens itself never turn into results (docs/run-state.md, "Signals"). `eval`
// sent SIGTERM or SIGKILL at seeded random moments: every evaluation it recorded equals the
// uninterrupted run's (a step cut short has no record: no environment error, no cancel), and a
// SIGTERM leaves no container of that process behind, not even one a request in flight made.
// `study submit` sent SIGTERM or SIGKILL at random moments: the next study command grades the
// submission, so the export's grades equal an uninterrupted submit's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli, runBuiltCli } from '../helpers/builtCli';
import { makeTinyChain, type TinyChain } from '../helpers/tinyChain';
import { seededRandom, testSeed } from '../helpers/batchRecords';

let tiny: TinyChain;
let root: string;
let dataDir: string;

before(() => {
  tiny = makeTinyChain();
  root = mkdtempSync(join(tmpdir(), 'chainlens-signals-'));
  dataDir = join(root, 'data');
});
after(() => {
  tiny.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const cli = (args: string[]) => runBuiltCli(args, { CHAINLENS_DATA: dataDir });

/** Runs the CLI and sends it `signal` after `delayMs`; resolves with its pid once it has ended. */
function signalled(args: string[], signal: NodeJS.Signals, delayMs: number): Promise<{ pid: number; ended: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli(), ...args], {
      env: { ...process.env, CHAINLENS_DATA: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(signal), delayMs);
    child.on('close', (code, by) => {
      clearTimeout(timer);
      resolve({ pid: child.pid!, ended: `${by ?? code}: ${stderr.trim().split('\n').pop() ?? ''}` });
    });
  });
}

function containersOf(pid: number): string[] {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=chainlens.pid=${pid}`], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

/** The recorded evaluations of the run in `dir` (none when it has no run yet). */
function evaluations(dir: string): Record<string, unknown> {
  const s = cli(['status', '--dir', dir, '--json']);
  if (s.code !== 0) return {};
  const { stateDir, run } = JSON.parse(s.stdout) as { stateDir: string; run: { id: string } };
  const path = join(stateDir, 'runs', `${run.id}.evals.json`);
  if (!existsSync(path)) return {};
  const index = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(
    Object.entries(index).map(([k, e]) => [k, [e.status, e.resolved, e.error_kind, e.tests_status]]),
  );
}

const evalArgs = (dir: string) => [
  'eval',
  tiny.chainFile,
  '--repo',
  tiny.repo,
  '--dir',
  dir,
  '--mode',
  'seq',
  '--predictions',
  'gold',
];

test('eval sent SIGTERM at 12 and SIGKILL at 8 random moments: every record equals the uninterrupted run, no container left by SIGTERM', async () => {
  const reference = join(root, 'eval-reference');
  const started = Date.now();
  const whole = cli(evalArgs(reference));
  const wholeMs = Date.now() - started;
  assert.equal(whole.code, 0, whole.stderr);
  const expected = evaluations(reference);
  assert.equal(Object.keys(expected).length, 3);
  const seed = testSeed();
  const rand = seededRandom(seed);
  let cut = 0;
  for (let trial = 0; trial < 20; trial++) {
    const signal = trial % 5 < 3 ? 'SIGTERM' : 'SIGKILL';
    const dir = join(root, `eval-${trial}`);
    const r = await signalled(evalArgs(dir), signal, Math.floor(rand() * wholeMs));
    const what = `seed ${seed}, trial ${trial} (${signal}, ${r.ended})`;
    // SIGTERM: its own containers are gone when the process is; SIGKILL: the next command's sweep.
    if (signal === 'SIGTERM') assert.deepEqual(containersOf(r.pid), [], `${what}: containers left`);
    const got = evaluations(dir);
    if (Object.keys(got).length < 3) cut++;
    for (const [key, value] of Object.entries(got)) assert.deepEqual(value, expected[key], `${what}: ${key}`);
  }
  assert.ok(cut > 0, `seed ${seed}: no eval was cut short`);
});

test('study submit sent SIGTERM or SIGKILL at random moments: the next study command grades it, as an uninterrupted submit does', async () => {
  // p0 uninterrupted, then 20 kills (SIGTERM and SIGKILL in turn), the count per command.
  const participants = Array.from({ length: 21 }, (_, i) => `p${i}`);
  const file = join(root, 'study.json');
  writeFileSync(
    file,
    JSON.stringify({
      chainlensStudy: 1,
      name: `signals-${process.pid}`,
      tasks: [{ id: 'calc', chain: tiny.chainFile, chainId: 'tiny_calc_chain', repo: tiny.repo }],
      conditions: [{ name: 'H', authors: ['human', 'human', 'human'] }],
      participants,
      assignment: {
        kind: 'explicit',
        sessions: Object.fromEntries(participants.map((p) => [p, [{ task: 'calc', condition: 'H' }]])),
      },
    }),
  );
  const work = join(root, 'study-work');
  const solve = (p: string) => {
    const s = cli(['study', 'start', file, '--participant', p, '--work', work]);
    assert.equal(s.code, 0, s.stderr);
    // A fix of step 1, by hand (the same for everyone).
    const ops = join(work, p, 'calc', 'calc', 'ops.py');
    writeFileSync(
      ops,
      readFileSync(ops, 'utf8').replace(
        '    return a / b\n',
        '    if b == 0:\n        raise ValueError("division by zero")\n    return a / b\n',
      ),
    );
  };
  // p0: uninterrupted.
  solve('p0');
  const started = Date.now();
  const whole = cli(['study', 'submit', file, '--participant', 'p0']);
  const wholeMs = Date.now() - started;
  assert.equal(whole.code, 0, whole.stderr);
  // Blind by default (feedback none): the participant is told it was graded, not how.
  assert.match(whole.stdout, /submitted step 1 and graded/);
  const seed = testSeed();
  const rand = seededRandom(seed);
  for (const [i, p] of participants.slice(1).entries()) {
    solve(p);
    const signal = i % 2 === 0 ? 'SIGTERM' : 'SIGKILL';
    await signalled(['study', 'submit', file, '--participant', p], signal, Math.floor(rand() * wholeMs));
  }
  // One command for all: the export grades every submission left ungraded, and the submits cut
  // short before submitting are submitted again by their participants.
  for (const p of participants.slice(1)) {
    const s = cli(['status', '--dir', join(work, p, 'calc'), '--json']);
    if (JSON.parse(s.stdout).run.currentStep === 1) {
      const again = cli(['study', 'submit', file, '--participant', p]);
      assert.equal(again.code, 0, again.stderr);
    }
  }
  const out = join(root, 'study-out');
  const e = cli(['study', 'export', file, '--out', out]);
  assert.equal(e.code, 0, e.stderr);
  const rows = readFileSync(join(out, 'rows.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          participant: string;
          step: number;
          resolved: boolean | null;
          f2pPassed: number | null;
          p2pPassed: number | null;
        },
    );
  const grade = (r: (typeof rows)[number]) => [r.resolved, r.f2pPassed, r.p2pPassed];
  const first = rows.filter((r) => r.step === 1);
  assert.equal(first.length, participants.length);
  const reference = grade(first.find((r) => r.participant === 'p0')!);
  assert.notEqual(reference[0], null, 'the uninterrupted submit is graded');
  for (const row of first) assert.deepEqual(grade(row), reference, `seed ${seed}: ${row.participant}`);
});
