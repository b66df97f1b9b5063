// Starting a run (a first checkout, or a mode switch: checkout again with the other mode) writes
// the switch journal and the new run's state, then makes the run current. A process SIGKILLed in
// between (fault point start:run-saved, via CHAINLENS_FAULT_KILL_AT in the real CLI) must leave a
// work tree whose next command shows the NEW run, checked out, as an uninterrupted start would.
// Mutation checked (applied by hand, test seen failing, reverted): rollForward of a 'switch'
// journal without `setCurrentRunId` (status then showed the old run, or no run at all).
// `status` runs in this process so the recovery it triggers is measured by the mutation tool.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runBuiltCli } from '../../helpers/builtCli';
import { runCli } from '../../helpers/cli';
import { git, makeTinyChain } from '../../helpers/tinyChain';

interface Status {
  run: { id: string; mode: string; currentStep: number | null };
  steps: { status: string; start: string | null }[];
}

async function status(dir: string): Promise<{ s: Status; stderr: string }> {
  const r = await runCli(['status', '--dir', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return { s: JSON.parse(r.stdout), stderr: r.stderr };
}

test('a mode switch or first checkout killed after saving the new run, before making it current, is finished by the next command', async () => {
  const c = makeTinyChain();
  try {
    const checkout = (dir: string, mode: string) => [
      'checkout',
      c.chainFile,
      '--repo',
      c.repo,
      '--dir',
      dir,
      '--mode',
      mode,
    ];
    const kill = { CHAINLENS_FAULT_KILL_AT: 'start:run-saved' };

    // Mode switch: a Seq run is current, the Oracle checkout dies half way.
    const dir = join(c.root, 'switch');
    assert.equal((await runCli(checkout(dir, 'seq'))).code, 0);
    const seq = (await status(dir)).s.run.id;
    const killed = runBuiltCli(checkout(dir, 'oracle'), kill);
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    const { s } = await status(dir);
    assert.equal(s.run.mode, 'oracle');
    assert.notEqual(s.run.id, seq);
    assert.equal(s.run.currentStep, 1);
    assert.deepEqual(
      s.steps.map((x) => x.status),
      ['current', 'pending', 'pending'],
    );
    assert.equal(git(dir, 'symbolic-ref', '--short', 'HEAD').trim(), `chainlens/${s.run.id}`);
    assert.equal(git(dir, 'rev-parse', 'HEAD').trim(), s.steps[0].start);
    assert.equal(git(dir, 'status', '--porcelain'), '');
    // Recovered once: the next command finds nothing left to do, and the old run is still there.
    assert.equal((await status(dir)).s.run.id, s.run.id);
    assert.equal(git(dir, 'rev-parse', '--verify', '--quiet', `refs/chainlens/${seq}/step-1/start`).trim().length, 40);

    // First checkout: no run was current before, so without recovery there would be none.
    const fresh = join(c.root, 'fresh');
    const first = runBuiltCli(checkout(fresh, 'seq'), kill);
    assert.equal(first.signal, 'SIGKILL', first.stderr);
    const after = (await status(fresh)).s;
    assert.equal(after.run.mode, 'seq');
    assert.equal(after.run.currentStep, 1);
    assert.equal(git(fresh, 'rev-parse', 'HEAD').trim(), c.baseCommit);
    assert.equal(git(fresh, 'status', '--porcelain'), '');
  } finally {
    c.cleanup();
  }
});
