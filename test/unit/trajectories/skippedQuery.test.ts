import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseTrajectory } from '../../../src/core/trajectories';
import { loadTrajectoryFile } from '../../../src/infra/trajectories';
import { read, samples } from './fixtures';

// Real SWE-agent runs store in every step the whole conversation so far (`query`); the shared
// samples were saved without it. Put it back, as SWE-agent writes it, and check the streamed
// load, which skips it, reads the same trajectory as the whole text without it.
test("a SWE-agent run with each step's query history reads the same as without it", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-query-'));
  try {
    for (const sample of [samples.sweV0, samples.sweV1]) {
      const text = read(sample);
      const doc = JSON.parse(text) as { trajectory: Record<string, unknown>[]; history: unknown[] };
      doc.trajectory.forEach((step, k) => {
        step.query = doc.history.slice(0, 2 + 2 * k);
      });
      const path = join(dir, basename(sample));
      writeFileSync(path, JSON.stringify(doc, null, 2));
      const expected = parseTrajectory(path, text);
      assert.ok(expected.trajectories[0].steps.length > 0);
      for (const thread of ['worker', 'current'] as const) {
        const streamed = await loadTrajectoryFile(path, { thread });
        assert.deepEqual(streamed, expected, `${basename(sample)} on the ${thread} thread`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
