import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTrajectory } from '../../../src/core/trajectories';
import { isUserError } from '../../../src/core/util/errors';
import { loadTrajectoryFile, type TrajectoryLoadProgress } from '../../../src/infra/trajectories';
import { read, samples } from './fixtures';

function tempDir(): { dir: string; [Symbol.dispose](): void } {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-load-'));
  return { dir, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

test('streamed (worker thread and this thread) reads the same as parsing the whole text', async () => {
  for (const path of [
    samples.sweV0,
    samples.sweV1,
    samples.miniLegacy,
    samples.miniPreds,
    samples.swePreds,
    samples.ohV0,
    samples.ohV1,
  ]) {
    const whole = parseTrajectory(path, read(path));
    for (const thread of ['worker', 'current'] as const) {
      const streamed = await loadTrajectoryFile(path, { thread });
      assert.deepEqual(streamed, whole, `${path} on the ${thread} thread`);
    }
  }
});

test('progress reaches the file size, and a preview of the first steps comes before the result', async () => {
  const events: TrajectoryLoadProgress[] = [];
  const file = await loadTrajectoryFile(samples.sweV0, {
    thread: 'worker',
    previewSteps: 3,
    onProgress: (p) => events.push(p),
  });
  const previews = events.filter((e) => e.preview);
  assert.equal(previews.length, 1);
  assert.ok(previews[0].preview!.steps.length >= 3);
  assert.deepEqual(
    previews[0].preview!.steps.slice(0, 3).map((s) => s.action),
    file.trajectories[0].steps.slice(0, 3).map((s) => s.action),
  );
  const total = Buffer.byteLength(read(samples.sweV0));
  assert.equal(events.at(-1)?.totalBytes, total);
  assert.ok(events.some((e) => e.bytesRead === total));
  assert.ok(events.findIndex((e) => e.preview) < events.findIndex((e) => e.trajectory));
});

test('JSONL: each trajectory is handed over as its line is read; a bad line names its byte offset', async () => {
  using tmp = tempDir();
  const [first, second] = read(samples.ohV0).trim().split('\n');
  const path = join(tmp.dir, 'output.jsonl');
  writeFileSync(path, `${first}\nnot json at all\n${second}\n`);
  const seen: string[] = [];
  const file = await loadTrajectoryFile(path, {
    thread: 'worker',
    onProgress: (p) => p.trajectory && seen.push(p.trajectory.instanceId ?? ''),
  });
  assert.deepEqual(seen, ['ponylang__ponyc-4595', 'ponylang__ponyc-4593']);
  assert.deepEqual(
    file.problems.map((p) => [p.file, p.line, p.byteOffset]),
    [[path, 2, Buffer.byteLength(first) + 1]],
  );
});

test('a load can be cancelled', async () => {
  using tmp = tempDir();
  const path = join(tmp.dir, 'big.jsonl');
  const line = read(samples.ohV0).split('\n')[0];
  writeFileSync(path, Array.from({ length: 200 }, () => line).join('\n') + '\n');
  const controller = new AbortController();
  const loading = loadTrajectoryFile(path, {
    thread: 'worker',
    signal: controller.signal,
    onProgress: () => controller.abort(),
  });
  await assert.rejects(loading, { name: 'AbortError' });
});

test('a file that cannot be opened is a UserError naming it', async () => {
  await assert.rejects(
    loadTrajectoryFile('/nonexistent/run.traj'),
    (e: unknown) => isUserError(e) && /cannot read \/nonexistent\/run\.traj: no such file/.test(e.message),
  );
});
