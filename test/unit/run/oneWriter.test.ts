// One writer per run, with real processes: two `replay`s (into one new --dir, and into one existing
// work tree), two `submit`s, and two MCP servers' `submit_step`, 20 trials each. Exactly one
// proceeds, the other is refused at once naming the holder (pid, command, since when), exit 1, and
// the run's records equal a single run's. Failure injection (fault point `locked:<operation>`)
// holds the first writer right after it took the lock until the second has answered: without it the
// two would overlap only by chance, and a trial could not tell "refused" from "came later".
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtCli, type ProcessResult } from '../../helpers/builtCli';
import { runCli } from '../../helpers/cli';
import { startMcpAgent, type ScriptedAgent } from '../../helpers/mcpAgent';
import { git, makeTinyChain, type TinyChain } from '../../helpers/tinyChain';

const TRIALS = 20;

function cli(args: string[], env: Record<string, string>): { pid: number; done: Promise<ProcessResult> } {
  const child = spawn(process.execPath, [builtCli(), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<ProcessResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { pid: child.pid!, done };
}

/** Both commands at once; the one that takes the lock waits at `locked:<operation>` until the other has exited. */
async function race(
  args: string[],
  operation: string,
  resumeFile: string,
): Promise<{ won: ProcessResult; lost: ProcessResult; winner: number }> {
  rmSync(resumeFile, { force: true });
  const env = { CHAINLENS_FAULT_PAUSE_AT: `locked:${operation}`, CHAINLENS_FAULT_RESUME: resumeFile };
  const a = cli(args, env);
  const b = cli(args, env);
  const first = await Promise.race([a.done.then((r) => ({ r, who: a })), b.done.then((r) => ({ r, who: b }))]);
  writeFileSync(resumeFile, '');
  const other = first.who === a ? b : a;
  return { lost: first.r, won: await other.done, winner: other.pid };
}

function assertRefusedBy(lost: ProcessResult, winner: number, command: RegExp, trial: string): void {
  assert.equal(lost.code, 1, `${trial}: the second writer exits 1\n${lost.stderr}`);
  assert.match(
    lost.stderr,
    new RegExp(
      `is being changed by pid ${winner} \\(${command.source}.*since \\d{4}-\\d\\d-\\d\\dT[\\d:]+Z\\); nothing was done`,
    ),
    trial,
  );
  assert.doesNotMatch(lost.stderr, /\n\s+at |internal error|EEXIST|ENOTEMPTY|index\.lock/, trial);
}

interface StepSummary {
  status: string;
  startTree: string | null;
  endTree: string | null;
}

/** `status --json` in this process (the same code as the CLI; the racing commands are the real processes). */
async function status(dir: string) {
  const r = await runCli(['status', '--dir', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function checkout(c: TinyChain, dir: string): Promise<void> {
  const r = await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir]);
  assert.equal(r.code, 0, r.stderr);
}

async function summary(dir: string): Promise<{ runs: number; steps: StepSummary[]; complete: boolean }> {
  const r = await runCli(['status', '--dir', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  const tree = (c: string | null) => (c ? git(dir, 'rev-parse', `${c}^{tree}`).trim() : null);
  return {
    runs: readdirSync(join(s.stateDir, 'runs')).filter(
      (f) => /^[a-z0-9-]+\.json$/.test(f) && !f.endsWith('.evals.json'),
    ).length,
    complete: s.run.complete,
    steps: s.steps.map((x: { status: string; start: string | null; end: string | null }) => ({
      status: x.status,
      startTree: tree(x.start),
      endTree: tree(x.end),
    })),
  };
}

function withChain(fn: (c: TinyChain) => Promise<void>) {
  return async () => {
    const c = makeTinyChain();
    try {
      await fn(c);
    } finally {
      c.cleanup();
    }
  };
}

const replayArgs = (c: TinyChain, dir: string) => [
  'replay',
  c.chainFile,
  '--repo',
  c.repo,
  '--dir',
  dir,
  '--mode',
  'seq',
  '--predictions',
  'gold',
];

// The three races are independent (each its own chain and processes): run side by side, since
// each trial mostly waits for process start-up.
describe('one writer per run, real processes', { concurrency: 3 }, () => {
  it(
    `two replays at once, ${TRIALS} trials (new --dir, then one existing work tree): one replays, the other is refused at once (writer held by failure injection)`,
    withChain(async (c) => {
      const reference = join(c.root, 'reference');
      assert.equal((await runCli(replayArgs(c, reference))).code, 0);
      const expected = await summary(reference);
      const resume = join(c.root, 'resume');
      const shared = join(c.root, 'shared');
      for (let t = 0; t < TRIALS; t++) {
        const fresh = t % 2 === 0;
        const dir = fresh ? join(c.root, `new-${t}`) : shared;
        const before = !fresh && existsSync(dir) ? (await summary(dir)).runs : 0;
        const { won, lost, winner } = await race(replayArgs(c, dir), 'replay', resume);
        const trial = `replay trial ${t} (${fresh ? 'new --dir' : 'existing work tree'})`;
        assert.equal(won.code, 0, `${trial}: ${won.stderr}`);
        assertRefusedBy(lost, winner, /chainlens replay: replay/, trial);
        const after = await summary(dir);
        assert.deepEqual(after.steps, expected.steps, trial);
        assert.equal(after.runs, before + 1, `${trial}: exactly one new run`);
        assert.equal(git(dir, 'status', '--porcelain'), '', trial);
        assert.deepEqual(
          readdirSync(c.root).filter((f) => f.includes('chainlens-partial')),
          [],
          `${trial}: no partial clone left`,
        );
      }
    }),
  );

  it(
    `two submits at once, ${TRIALS} trials: one submits the person's work as the step, the other is refused at once (writer held by failure injection)`,
    withChain(async (c) => {
      const dir = join(c.root, 'work');
      const resume = join(c.root, 'resume');
      for (let t = 0; t < TRIALS; t++) {
        const trial = `submit trial ${t}`;
        if (t % 3 === 0) await checkout(c, dir);
        const before = await status(dir);
        const step = before.run.currentStep as number;
        writeFileSync(join(dir, `work-${t}.txt`), `the person's work of trial ${t}\n`);
        const { won, lost, winner } = await race(['submit', '--dir', dir], 'submit', resume);
        assert.equal(won.code, 0, `${trial}: ${won.stderr}`);
        assertRefusedBy(lost, winner, /chainlens submit: submit/, trial);
        const after = await status(dir);
        assert.equal(after.run.id, before.run.id, trial);
        assert.equal(after.run.currentStep, step === 3 ? null : step + 1, trial);
        const done = after.steps[step - 1];
        assert.equal(done.status, 'submitted', trial);
        // One commit, holding exactly this trial's work.
        assert.equal(git(dir, 'rev-list', '--count', `${done.start}..${done.end}`).trim(), '1', trial);
        assert.equal(git(dir, 'diff', '--name-only', done.start, done.end).trim(), `work-${t}.txt`, trial);
      }
    }),
  );

  it(
    `two MCP servers' submit_step at once, ${TRIALS} trials: one submits, the other answers an error naming the holder (writer held by failure injection)`,
    withChain(async (c) => {
      const dir = join(c.root, 'work');
      await checkout(c, dir);
      const resume = join(c.root, 'resume');
      const env = { CHAINLENS_FAULT_PAUSE_AT: 'locked:submit_step', CHAINLENS_FAULT_RESUME: resume };
      const agents: ScriptedAgent[] = [];
      try {
        agents.push(await startMcpAgent(dir, [], env), await startMcpAgent(dir, [], env));
        const pids = agents.map((a) => (a.client.transport as unknown as { pid: number | null }).pid!);
        for (let t = 0; t < TRIALS; t++) {
          const trial = `MCP trial ${t}`;
          if (t > 0 && t % 3 === 0) await checkout(c, dir);
          const before = await status(dir);
          const step = before.run.currentStep as number;
          rmSync(resume, { force: true });
          writeFileSync(join(dir, `agent-work-${t}.txt`), `the agent's work of trial ${t}\n`);
          const calls = agents.map((a, i) => a.call('submit_step', {}).then((r) => ({ r, i })));
          const first = await Promise.race(calls);
          writeFileSync(resume, '');
          const second = await calls[1 - first.i];
          assert.equal(first.r.isError, true, `${trial}: ${first.r.text}`);
          assert.match(
            first.r.text,
            new RegExp(
              `is being changed by pid ${pids[second.i]} \\(chainlens mcp: submit_step, since [\\dT:Z-]+\\); nothing was done`,
            ),
            trial,
          );
          assert.equal(second.r.isError, false, `${trial}: ${second.r.text}`);
          assert.equal(JSON.parse(second.r.text).submitted, step, trial);
          const after = await status(dir);
          assert.equal(after.run.currentStep, step === 3 ? null : step + 1, trial);
          assert.deepEqual(
            after.steps.map((s: { status: string }) => s.status),
            before.steps.map((s: { status: string }, i: number) =>
              i === step - 1 ? 'submitted' : i === step ? 'current' : s.status,
            ),
            trial,
          );
        }
      } finally {
        for (const a of agents) await a.close();
      }
    }),
  );
});

test('one MCP session: a second submit_step sent while the first is in flight is refused, never submits the next step empty', async () => {
  const c = makeTinyChain();
  const agent = await (async () => {
    const dir = join(c.root, 'work');
    await checkout(c, dir);
    writeFileSync(
      join(dir, 'calc/ops.py'),
      readFileSync(join(dir, 'calc/ops.py'), 'utf8') + '\n# step 1 by the agent\n',
    );
    return { dir, a: await startMcpAgent(dir) };
  })();
  try {
    const [one, two] = await Promise.all([agent.a.call('submit_step', {}), agent.a.call('submit_step', {})]);
    assert.equal(one.isError, false, one.text);
    assert.equal(JSON.parse(one.text).submitted, 1);
    assert.equal(two.isError, true, two.text);
    assert.match(two.text, /another submit_step was still in progress when this one was made; nothing was submitted/);
    const s = await status(agent.dir);
    assert.equal(s.run.currentStep, 2);
    assert.equal(s.steps[1].status, 'current');
  } finally {
    await agent.a.close();
    c.cleanup();
  }
});
