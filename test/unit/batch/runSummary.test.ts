import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeCounts, evidenceText, evidenceVerdict, summarizeRun } from '../../../src/core/batch';
import { BatchRunDir } from '../../../src/infra/batch/runDir';

const fixture = join(__dirname, '../../fixtures/batch/run');
const run = new BatchRunDir(fixture);

test('a run is summarised per (source, mode), per chain and per step, with hand-counted figures', () => {
  const s = summarizeRun(run.readManifest(), run.readRecords(), false);
  assert.equal(s.state, 'finished');
  assert.deepEqual([s.total, s.done, s.resolved, s.infraFailures], [10, 10, 5, 1]);
  assert.deepEqual(
    s.groups.map((g) => [g.source, g.mode, g.done, g.resolved, g.infraFailures]),
    [
      ['m1', 'oracle', 5, 4, 0],
      ['m1', 'seq', 5, 1, 1],
    ],
  );
  const seqB = s.groups[1].chains.find((c) => c.chainId === 'B')!;
  assert.deepEqual(
    seqB.steps.map((st) => [st.order, st.position, st.id, st.record?.infra_failure]),
    [
      [10, 1, 'B/m1/seq/step-10', false],
      [11, 2, 'B/m1/seq/step-11', true],
    ],
  );
  assert.equal(describeCounts(s.groups[1]), '5/5 done · 1 resolved · 1 infra failure');
});

test('a run with steps left is interrupted, or running while a batch works on it', () => {
  const records = run.readRecords().filter((r) => r.chain_id !== 'A' || r.mode !== 'seq' || r.order < 3);
  const manifest = run.readManifest();
  const stopped = summarizeRun(manifest, records, false);
  assert.equal(stopped.state, 'interrupted');
  assert.deepEqual([stopped.done, stopped.total], [9, 10]);
  const chainA = stopped.groups[1].chains[0];
  assert.equal(chainA.steps[2].record, null);
  assert.equal(describeCounts(chainA), '2/3 done · 1 resolved');
  assert.equal(summarizeRun(manifest, records, true).state, 'running');
});

test('a lock left by a process that is gone (a killed batch) is not held; one of this live process is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-batch-lock-'));
  try {
    cpSync(fixture, dir, { recursive: true });
    const copy = new BatchRunDir(dir);
    assert.equal(copy.heldByLiveProcess, false);
    const lock = copy.lock();
    assert.equal(copy.heldByLiveProcess, true);
    lock.release();
    assert.equal(copy.heldByLiveProcess, false);
    // pid 2^22+1 is above Linux's pid_max: no process has it.
    writeFileSync(
      join(dir, 'batch.lock'),
      JSON.stringify({ pid: 4194305, startToken: 'x', host: hostname(), token: 't' }),
    );
    assert.equal(copy.heldByLiveProcess, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a chain error's evidence is on its Seq step, and the tree's words for it name the culprit", () => {
  const evidence = {
    version: 1 as const,
    chain_id: 'A',
    source: 'm1',
    order: 2,
    position: 2,
    verdict: 'poisoned' as const,
    culprits: [
      { position: 1, order: 1, hunks: [{ kind: 'overshoot' as const, hunk: 'a.py#2', file: 'a.py', header: '@@' }] },
    ],
    trials: [],
    finished_at: '2026-01-01T00:00:00.000Z',
  };
  const s = summarizeRun(run.readManifest(), run.readRecords(), false, [evidence]);
  const steps = (mode: number) => s.groups[mode].chains[0].steps.map((st) => st.evidence?.verdict ?? null);
  assert.deepEqual(steps(1), [null, 'poisoned', null]);
  assert.deepEqual(steps(0), [null, null, null]);
  assert.equal(evidenceVerdict(evidence), 'poisoned by step 1 (a.py#2 overshoot)');
  assert.equal(evidenceVerdict({ verdict: 'solvable', culprits: [] }), 'solvable');
  assert.equal(evidenceText(evidence), "poisoned by step 1's hunk a.py#2 (overshoot)");
});
