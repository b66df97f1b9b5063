// A `submit` that takes the run's lock right after another one released it must not submit the
// next step, empty, in the person's name: it submits the step it saw when it started (or the one
// named with --step), and a step with no change only with --allow-empty. While another process
// holds the run, `status` says who. Real processes; failure injection (fault points
// `locked:submit` and `submit:saw-step`) holds each one where the race needs it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtCli, type ProcessResult } from '../../helpers/builtCli';
import { runCli } from '../../helpers/cli';
import { git, makeTinyChain } from '../../helpers/tinyChain';

const tiny = makeTinyChain();
after(() => tiny.cleanup());

/** The CLI, held at fault point `pause` until the test lets it go; `reached` settles once it is there. */
function held(args: string[], pause: string, name: string) {
  const resume = join(tiny.root, `resume-${name}`);
  rmSync(resume, { force: true });
  const child = spawn(process.execPath, [builtCli(), ...args], {
    env: { ...process.env, CHAINLENS_FAULT_PAUSE_AT: pause, CHAINLENS_FAULT_RESUME: resume },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<ProcessResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const reached = (async () => {
    while (!existsSync(`${resume}.waiting`)) {
      if (child.exitCode !== null) throw new Error(`${name} exited before ${pause}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return { pid: child.pid!, done, reached, release: () => writeFileSync(resume, '') };
}

async function status(dir: string) {
  const r = await runCli(['status', '--dir', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as {
    run: { currentStep: number | null };
    steps: { status: string }[];
    busy: string | null;
  };
}

const dir = join(tiny.root, 'work');

test('setup: a person-solved run', async () => {
  const r = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir]);
  assert.equal(r.code, 0, r.stderr);
});

test('two submits, the second taking the lock right after the first: the second is refused, step 2 stays current', async () => {
  for (let trial = 0; trial < 3; trial++) {
    const before = await status(dir);
    const step = before.run.currentStep!;
    writeFileSync(join(dir, `work-${trial}.txt`), `the person's work of step ${step}\n`);
    const first = held(['submit', '--dir', dir], 'locked:submit', `first-${trial}`);
    await first.reached;
    // status names the holder while it holds the run (item: status says who is busy).
    const busy = await status(dir);
    assert.match(
      busy.busy ?? '',
      new RegExp(`is being changed by pid ${first.pid} \\(chainlens submit: submit, since `),
    );
    const text = await runCli(['status', '--dir', dir]);
    assert.match(text.stderr, new RegExp(`note: .*pid ${first.pid} \\(chainlens submit: submit`));
    // The second has read the step it submits, then waits; the first finishes meanwhile.
    const second = held(['submit', '--dir', dir], 'submit:saw-step', `second-${trial}`);
    await second.reached;
    first.release();
    const won = await first.done;
    assert.equal(won.code, 0, won.stderr);
    second.release();
    const lost = await second.done;
    assert.equal(lost.code, 1, `trial ${trial}: ${lost.stderr}`);
    assert.match(
      lost.stderr,
      new RegExp(`step ${step} is not the current step \\(the run is on step ${step + 1}\\); nothing was submitted`),
    );
    const after = await status(dir);
    assert.equal(after.run.currentStep, step + 1, `trial ${trial}`);
    assert.equal(after.steps[step].status, 'current', `trial ${trial}`);
    assert.equal(after.busy, null);
    if (step + 1 === 3) break;
  }
});

test('a step with no change is refused without --allow-empty, nothing written; --step names another step: refused', async () => {
  const before = await status(dir);
  const step = before.run.currentStep!;
  const head = git(dir, 'rev-parse', 'HEAD');
  const empty = await runCli(['submit', '--dir', dir]);
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, new RegExp(`step ${step} has no change in the work tree; nothing was submitted`));
  assert.match(empty.stderr, /--allow-empty/);
  const wrong = await runCli(['submit', '--dir', dir, '--step', String(step - 1), '--allow-empty']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, new RegExp(`step ${step - 1} is not the current step`));
  const bad = await runCli(['submit', '--dir', dir, '--step', 'two']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--step takes a step number, not 'two'/);
  assert.equal(git(dir, 'rev-parse', 'HEAD'), head, 'nothing committed');
  assert.equal((await status(dir)).run.currentStep, step);
  const ok = await runCli(['submit', '--dir', dir, '--step', String(step), '--allow-empty']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal((await status(dir)).steps[step - 1].status, 'submitted');
});
