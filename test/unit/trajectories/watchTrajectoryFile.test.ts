import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchTrajectoryFile, type TrajectoryFileChange } from '../../../src/infra/trajectories';
import { read, samples } from './fixtures';

/** Collects change notifications; `next()` waits for the next one (a guard fails the test if none comes). */
function changes() {
  const queue: TrajectoryFileChange[] = [];
  const waiting: ((c: TrajectoryFileChange) => void)[] = [];
  return {
    push(c: TrajectoryFileChange) {
      const w = waiting.shift();
      if (w) w(c);
      else queue.push(c);
    },
    next(): Promise<TrajectoryFileChange> {
      const c = queue.shift();
      if (c) return Promise.resolve(c);
      return new Promise((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error('no change notification arrived')), 10_000);
        waiting.push((x) => {
          clearTimeout(guard);
          resolve(x);
        });
      });
    },
    get pending() {
      return queue.length;
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 400));

test('a growing output.jsonl: only appended lines are read, a half-written line waits for its newline', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-watch-'));
  const path = join(dir, 'output.jsonl');
  const [first, second] = read(samples.ohV0).trim().split('\n');
  writeFileSync(path, first + '\n');
  const seen = changes();
  const w = watchTrajectoryFile(path, (c) => seen.push(c), { debounceMs: 20 });
  try {
    const initial = await seen.next();
    assert.equal(initial.reason, 'initial');
    assert.deepEqual(
      initial.file.trajectories.map((t) => t.instanceId),
      ['ponylang__ponyc-4595'],
    );

    appendFileSync(path, second.slice(0, 1000)); // the agent is still writing this line
    await settle();
    assert.equal(seen.pending, 0);

    appendFileSync(path, second.slice(1000) + '\n');
    const grown = await seen.next();
    assert.equal(grown.reason, 'appended');
    assert.deepEqual(
      grown.changed.map((t) => [t.instanceId, t.source.line]),
      [['ponylang__ponyc-4593', 2]],
    );
    assert.deepEqual(
      grown.file.trajectories.map((t) => t.instanceId),
      ['ponylang__ponyc-4595', 'ponylang__ponyc-4593'],
    );
    assert.deepEqual(grown.file.problems, []);
  } finally {
    w.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an SDK event log growing event by event: the trajectory gains the new steps', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-watch-'));
  const path = join(dir, 'events.jsonl');
  const lines = read(samples.ohV1).trim().split('\n');
  writeFileSync(path, lines.slice(0, 9).join('\n') + '\n');
  const seen = changes();
  const w = watchTrajectoryFile(path, (c) => seen.push(c), { debounceMs: 20 });
  try {
    const initial = await seen.next();
    assert.equal(initial.file.trajectories[0].steps.length, 3);
    appendFileSync(path, lines.slice(9).join('\n') + '\n');
    const grown = await seen.next();
    assert.equal(grown.reason, 'appended');
    assert.equal(grown.file.trajectories[0].steps.length, 7);
    assert.equal(grown.file.trajectories[0].exitStatus, 'finished');
  } finally {
    w.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a .traj rewritten after each step (as SWE-agent saves it) is read again in full', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-watch-'));
  const path = join(dir, 'pydicom__pydicom-1458.traj');
  const doc = JSON.parse(read(samples.sweV0)) as { trajectory: unknown[] };
  const partial = { ...doc, trajectory: doc.trajectory.slice(0, 4) };
  writeFileSync(path, JSON.stringify(partial, null, 2));
  const seen = changes();
  const w = watchTrajectoryFile(path, (c) => seen.push(c), { debounceMs: 20 });
  try {
    assert.equal((await seen.next()).file.trajectories[0].steps.length, 4);
    writeFileSync(path, JSON.stringify(doc, null, 2));
    const again = await seen.next();
    assert.equal(again.reason, 'reloaded');
    assert.equal(again.file.trajectories[0].steps.length, 12);
  } finally {
    w.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
