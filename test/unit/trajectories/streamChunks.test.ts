import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTrajectory } from '../../../src/core/trajectories';
import type { Trajectory, TrajectoryProblem } from '../../../src/protocol/trajectory';
import { streamTrajectoryFile } from '../../../src/infra/trajectories/streamTrajectory';

// Multi-byte characters (2, 3 and 4 bytes in UTF-8) in every kind of value a step keeps, so
// that small chunks cut each of them between its bytes somewhere.
const TEXT = 'café → naïve 𝄞 done';

function sweAgentDoc(): object {
  const steps = [0, 1, 2].map((k) => ({
    action: `echo "${TEXT} ${k}"`,
    observation: `${TEXT}\n${k}`,
    thought: `Thinking ${TEXT}`,
    response: `Response ${TEXT}`,
    query: [{ role: 'user', content: `${TEXT} repeated history ${k}` }],
  }));
  return {
    environment: 'swe_main',
    trajectory: steps,
    history: [{ role: 'system', content: TEXT }],
    info: { exit_status: 'submitted', submission: '' },
  };
}

async function streamed(path: string, chunkBytes: number) {
  const trajectories: Trajectory[] = [];
  const problems: TrajectoryProblem[] = [];
  await streamTrajectoryFile(
    path,
    { trajectory: (t) => trajectories.push(t), problem: (p) => problems.push(p) },
    { chunkBytes },
  );
  return { trajectories, problems };
}

test('a code point split across chunks, and a byte order mark, read as in the whole text', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-chunks-'));
  try {
    const path = join(dir, 'split__split-1.traj');
    const text = JSON.stringify(sweAgentDoc(), null, 2);
    writeFileSync(path, '\uFEFF' + text);
    const whole = parseTrajectory(path, text);
    assert.equal(whole.trajectories[0].steps.length, 3);
    for (const chunkBytes of [1, 2, 3, 5, 64]) {
      const r = await streamed(path, chunkBytes);
      assert.deepEqual(r.problems, [], `chunks of ${chunkBytes} bytes`);
      assert.deepEqual(r.trajectories, whole.trajectories, `chunks of ${chunkBytes} bytes`);
      assert.ok(r.trajectories[0].steps[2].observation?.includes(TEXT), `chunks of ${chunkBytes} bytes`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('malformed JSON after a multi-byte character names the file, line, column and JSON path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-chunks-'));
  try {
    const path = join(dir, 'bad__bad-1.traj');
    const text = JSON.stringify(sweAgentDoc(), null, 2).replace('"response": "Response', '"response" "Response');
    writeFileSync(path, text);
    const r = await streamed(path, 3);
    assert.equal(r.problems.length, 1);
    const [p] = r.problems;
    assert.equal(p.file, path);
    assert.equal(p.jsonPath, '$.trajectory[0]');
    assert.match(p.message, /expected ':' after property "response"/);
    const lines = text.split('\n');
    const badLine = lines.findIndex((l) => l.includes('"response" "Response')) + 1;
    assert.equal(p.line, badLine);
    assert.equal(p.column, lines[badLine - 1].indexOf('"response"') + '"response"'.length + 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
