// A process killed with SIGKILL in the middle of submit or replay must leave a run that the next
// command rolls forward to exactly what an uninterrupted process would have produced.
// Failure injection: CHAINLENS_FAULT_KILL_AT makes the real CLI SIGKILL itself between two writes
// (deterministic coverage of every gap), and timed kills hit it wherever it happens to be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyChain, git, type TinyChain } from '../../helpers/tinyChain';
import { runBuiltCli, runBuiltCliKilledAfter } from '../../helpers/builtCli';

interface StepSummary {
  status: string;
  startTree: string;
  endTree: string | null;
}

function summary(dir: string): { complete: boolean; current: number | null; steps: StepSummary[]; headTree: string } {
  const r = runBuiltCli(['status', '--dir', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  const tree = (c: string) => git(dir, 'rev-parse', `${c}^{tree}`).trim();
  for (const step of s.steps) {
    if (step.start)
      assert.equal(git(dir, 'rev-parse', `refs/chainlens/${s.run.id}/step-${step.order}/start`).trim(), step.start);
    if (step.end)
      assert.equal(git(dir, 'rev-parse', `refs/chainlens/${s.run.id}/step-${step.order}/end`).trim(), step.end);
  }
  return {
    complete: s.run.complete,
    current: s.run.currentStep,
    headTree: tree('HEAD'),
    steps: s.steps.map((x: { status: string; start: string; end: string | null }) => ({
      status: x.status,
      startTree: x.start ? tree(x.start) : '',
      endTree: x.end ? tree(x.end) : null,
    })),
  };
}

function replayArgs(c: TinyChain, dir: string, mode: string) {
  return ['replay', c.chainFile, '--repo', c.repo, '--dir', dir, '--mode', mode, '--predictions', 'gold'];
}

const POINTS = ['apply:applied', 'submit:committed', 'finish:end-ref', 'finish:state-saved', 'switch:journaled'];

for (const mode of ['seq', 'oracle']) {
  test(`replay (${mode}) killed at every write boundary is rolled forward by the next command to the uninterrupted result`, () => {
    const c = makeTinyChain();
    try {
      const reference = join(c.root, 'reference');
      assert.equal(runBuiltCli(replayArgs(c, reference, mode)).code, 0);
      const expected = summary(reference);
      let kills = 0;
      for (const point of POINTS) {
        // The 3rd apply is the one that creates a file (tinyChain step 3): a killed apply leaves it untracked.
        for (const nth of [1, 2, 3]) {
          const dir = join(c.root, `${point.replace(':', '-')}-${nth}`);
          const killed = runBuiltCli(replayArgs(c, dir, mode), { CHAINLENS_FAULT_KILL_AT: `${point}:${nth}` });
          if (killed.signal === null) continue; // this mode never reaches the point that often
          assert.equal(killed.signal, 'SIGKILL');
          kills++;
          const after = summary(dir);
          assert.deepEqual(after, expected, `killed at ${point} #${nth}`);
          assert.equal(git(dir, 'status', '--porcelain'), '', `clean tree after recovery from ${point} #${nth}`);
        }
      }
      // Seq never switches the tree between steps (one switch at start); Oracle does at every step.
      assert.ok(kills >= (mode === 'seq' ? 6 : 8), `only ${kills} injected kills happened`);
    } finally {
      c.cleanup();
    }
  });
}

test("submit killed at every write boundary keeps the person's work as the step's patch and advances", () => {
  const c = makeTinyChain();
  try {
    for (const mode of ['seq', 'oracle']) {
      for (const point of ['submit:committed', 'finish:end-ref', 'finish:state-saved', 'switch:journaled']) {
        const dir = join(c.root, `${mode}-${point.replace(':', '-')}`);
        assert.equal(runBuiltCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir, '--mode', mode]).code, 0);
        writeFileSync(join(dir, 'calc/ops.py'), readFileSync(join(dir, 'calc/ops.py'), 'utf8') + '\n# fixed by hand\n');
        const killed = runBuiltCli(['submit', '--dir', dir], { CHAINLENS_FAULT_KILL_AT: point });
        if (mode === 'seq' && point === 'switch:journaled') {
          // Seq needs no checkout between steps, so this point is never reached.
          assert.equal(killed.code, 0);
        } else {
          assert.equal(killed.signal, 'SIGKILL', `${mode} ${point}: ${killed.stderr}`);
        }
        const r = runBuiltCli(['status', '--dir', dir, '--json']);
        assert.equal(r.code, 0, r.stderr);
        const s = JSON.parse(r.stdout);
        assert.deepEqual(
          s.steps.map((x: { status: string }) => x.status),
          ['submitted', 'current', 'pending'],
          `${mode} ${point}`,
        );
        assert.match(git(dir, 'diff', s.steps[0].start, s.steps[0].end), /\+# fixed by hand/);
        assert.equal(git(dir, 'status', '--porcelain'), '');
      }
    }
  } finally {
    c.cleanup();
  }
});

for (const signal of ['SIGKILL', 'SIGTERM'] as const)
  test(`replay sent ${signal} at 21 moments always recovers to the uninterrupted result`, async () => {
    const c = makeTinyChain();
    try {
      const reference = join(c.root, 'reference');
      assert.equal(runBuiltCli(replayArgs(c, reference, 'oracle')).code, 0);
      const expected = summary(reference);
      for (let delay = 30; delay <= 630; delay += 30) {
        const dir = join(c.root, `timed-${delay}`);
        const killed = await runBuiltCliKilledAfter(replayArgs(c, dir, 'oracle'), delay, signal);
        const r = runBuiltCli(['status', '--dir', dir, '--json']);
        if (r.code !== 0) {
          // Killed before the work tree existed, mid-clone, or between the clone's rename into
          // place and its run: nothing usable is left behind (status removes such a clone, and
          // never leaves a directory that "has no ChainLens run"), and a new replay succeeds.
          assert.match(r.stderr, /does not exist|not a git work tree|was killed before its run started/, r.stderr);
          const again = runBuiltCli(replayArgs(c, dir, 'oracle'));
          assert.equal(
            again.code,
            0,
            `killed after ${delay} ms (it had printed: ${killed.stderr.trim()}); status: ${r.stderr.trim()}; the replay after it: ${again.stderr.trim()}`,
          );
        }
        assert.deepEqual(summary(dir), expected, `${signal} after ${delay} ms`);
      }
    } finally {
      c.cleanup();
    }
  });

for (const signal of ['SIGKILL', 'SIGTERM'] as const)
  test(`submit sent ${signal} at 20 moments: the step is submitted once with the person's work, or not at all and submits again`, async () => {
    const c = makeTinyChain();
    try {
      for (let trial = 0; trial < 20; trial++) {
        const dir = join(c.root, `submit-${signal}-${trial}`);
        assert.equal(runBuiltCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir]).code, 0);
        writeFileSync(join(dir, 'calc/ops.py'), readFileSync(join(dir, 'calc/ops.py'), 'utf8') + '\n# fixed by hand\n');
        await runBuiltCliKilledAfter(['submit', '--dir', dir], 10 + trial * 15, signal);
        let s = JSON.parse(runBuiltCli(['status', '--dir', dir, '--json']).stdout);
        if (s.steps[0].status === 'current') {
          // Not submitted: the work is still there, uncommitted, and submitting again takes it.
          assert.notEqual(git(dir, 'status', '--porcelain'), '', `trial ${trial}`);
          assert.equal(runBuiltCli(['submit', '--dir', dir, '--step', '1']).code, 0);
          s = JSON.parse(runBuiltCli(['status', '--dir', dir, '--json']).stdout);
        }
        assert.deepEqual(
          s.steps.map((x: { status: string }) => x.status),
          ['submitted', 'current', 'pending'],
          `${signal} trial ${trial}`,
        );
        assert.equal(git(dir, 'rev-list', '--count', `${s.steps[0].start}..${s.steps[0].end}`).trim(), '1');
        assert.match(git(dir, 'diff', s.steps[0].start, s.steps[0].end), /\+# fixed by hand/);
        assert.equal(git(dir, 'status', '--porcelain'), '');
      }
    } finally {
      c.cleanup();
    }
  });

// Between the clone's rename into place and the run being current: the checkout-target lock taken
// (nothing of the start written yet), and the chain copy saved (a state folder with no run yet).
for (const point of ['locked:checkout:2', 'start:chain-saved'])
  test(`a checkout killed at ${point}, after renaming its clone into place and before its run (failure injection): status removes the clone, a new checkout succeeds`, () => {
    const c = makeTinyChain();
    try {
      const dir = join(c.root, 'renamed-then-killed');
      const args = ['checkout', c.chainFile, '--repo', c.repo, '--dir', dir];
      const killed = runBuiltCli(args, { CHAINLENS_FAULT_KILL_AT: point });
      assert.equal(killed.signal, 'SIGKILL', killed.stderr);
      assert.deepEqual(readdirSync(dir), ['.git'], 'the clone is in place, its run not started');
      const r = runBuiltCli(['status', '--dir', dir]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /held the clone of a checkout that was killed before its run started; it was removed/);
      assert.deepEqual(readdirSync(dir), [], 'the directory is left empty');
      assert.equal(runBuiltCli(args).code, 0);
      assert.equal(JSON.parse(runBuiltCli(['status', '--dir', dir, '--json']).stdout).run.currentStep, 1);
      // The same leftover, checked out again at once: the checkout finishes it (reuses the clone).
      const again = join(c.root, 'finished-by-checkout');
      runBuiltCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', again], { CHAINLENS_FAULT_KILL_AT: point });
      assert.equal(runBuiltCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', again]).code, 0);
      const s = JSON.parse(runBuiltCli(['status', '--dir', again, '--json']).stdout);
      assert.equal(s.run.currentStep, 1);
      assert.equal(git(again, 'status', '--porcelain'), '');
    } finally {
      c.cleanup();
    }
  });

test('a checkout killed after writing its state pointer in .git but before making the folder it names (failure injection): status removes the clone', () => {
  const c = makeTinyChain();
  try {
    const dir = join(c.root, 'pointer-then-killed');
    const args = ['checkout', c.chainFile, '--repo', c.repo, '--dir', dir];
    const killed = runBuiltCli(args, { CHAINLENS_FAULT_KILL_AT: 'locked:checkout:2' });
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    // What the kill leaves a moment later: the pointer written, its folder not made yet.
    mkdirSync(join(dir, '.git', 'chainlens'), { recursive: true });
    writeFileSync(join(dir, '.git', 'chainlens', 'state'), 'pointer-then-killed-0123456789abcdef01234567\n');
    const r = runBuiltCli(['status', '--dir', dir]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /held the clone of a checkout that was killed before its run started; it was removed/);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(runBuiltCli(args).code, 0);
    assert.equal(JSON.parse(runBuiltCli(['status', '--dir', dir, '--json']).stdout).run.currentStep, 1);
  } finally {
    c.cleanup();
  }
});

test('a replay killed once its run is saved but before it is current (failure injection): status finishes it to the uninterrupted result', () => {
  const c = makeTinyChain();
  try {
    const reference = join(c.root, 'reference');
    assert.equal(runBuiltCli(replayArgs(c, reference, 'oracle')).code, 0);
    const dir = join(c.root, 'saved-then-killed');
    const killed = runBuiltCli(replayArgs(c, dir, 'oracle'), { CHAINLENS_FAULT_KILL_AT: 'start:run-saved' });
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    const r = runBuiltCli(['status', '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(summary(dir), summary(reference));
    assert.equal(git(dir, 'status', '--porcelain'), '');
  } finally {
    c.cleanup();
  }
});
