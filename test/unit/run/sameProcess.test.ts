// Two engines on one run in one process (the extension host has the window's and the agent
// tools'): while one submits, the other must not take the half-written journal for a dead
// process's leftovers and "recover" it in parallel: the run's lock keeps it from writing, and opening
// (which is reading, docs/run-state.md) gives it the run as last saved. Real git and run store; the
// second engine is started from the first one's fault point, i.e. between two of its writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChainRunEngine } from '../../../src/core/run/engine';
import { openWorkspace } from '../../../src/infra/run/workspace';
import { runCli } from '../../helpers/cli';
import { git, makeTinyChain } from '../../helpers/tinyChain';

test('an engine of the same process does not recover a run another engine is submitting: it reads the run as saved, and the submit completes once', async () => {
  const c = makeTinyChain();
  try {
    const dir = join(c.root, 'work');
    assert.equal((await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir])).code, 0);
    const a = await openWorkspace(dir);
    const b = await openWorkspace(dir);
    let concurrent: Promise<unknown> | undefined;
    const engineA = new ChainRunEngine(
      a.git,
      a.store,
      { now: () => new Date() },
      () => {},
      process.pid,
      (point) => {
        if (point === 'submit:committed')
          concurrent = b.engine.open().then(
            (opened) => opened,
            (e: unknown) => e,
          );
      },
    );
    writeFileSync(
      join(dir, 'calc/ops.py'),
      readFileSync(join(dir, 'calc/ops.py'), 'utf8').replace(
        'return a / b',
        'if not b:\n        raise ValueError("zero")\n    return a / b',
      ),
    );
    const { state } = await engineA.submit();
    assert.ok(concurrent, 'the fault point ran');
    const outcome = (await concurrent) as { state: { currentStep: number | null }; notes: string[] };
    assert.ok(!(outcome instanceof Error), `the second engine failed: ${String(outcome)}`);
    assert.deepEqual(outcome.notes, [], 'the second engine recovered nothing');
    assert.equal(outcome.state.currentStep, 1, 'it saw the run as last saved, step 1 still current');
    assert.deepEqual(
      state.steps.map((s) => s.status),
      ['submitted', 'current', 'pending'],
    );
    assert.equal(a.store.readJournal(), null);
    // One commit for step 1, and the second engine opens the run cleanly afterwards.
    assert.equal(git(dir, 'rev-list', '--count', `${c.baseCommit}..HEAD`).trim(), '1');
    const after = await b.engine.open();
    assert.deepEqual(after.notes, []);
    assert.equal(after.state.currentStep, 2);
  } finally {
    c.cleanup();
  }
});
