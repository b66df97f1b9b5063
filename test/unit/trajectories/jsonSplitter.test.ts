import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonAssembler, JsonSplitter, readJsonDocument, splitTrajectoryDocument } from '../../../src/core/trajectories';
import { read, samples } from './fixtures';

function assemble(
  text: string,
  chunk: number,
): { root: unknown; stop: ReturnType<JsonSplitter['end']>; pieces: string[] } {
  const pieces: string[] = [];
  const a = new JsonAssembler((path) => pieces.push(JSON.stringify(path)));
  const s = new JsonSplitter(splitTrajectoryDocument, a);
  for (let i = 0; i < text.length; i += chunk) s.write(text.slice(i, i + chunk));
  return { root: a.root, stop: s.end(), pieces };
}

test('fed in chunks of any size, the pieces rebuild exactly what JSON.parse reads', () => {
  for (const path of [samples.sweV0, samples.sweV1, samples.miniLegacy, samples.miniPreds]) {
    const text = read(path);
    for (const chunk of [1, 7, 4096, text.length]) {
      const { root, stop } = assemble(text, chunk);
      assert.equal(stop, null, `${path} in chunks of ${chunk}`);
      assert.deepEqual(root, JSON.parse(text), `${path} in chunks of ${chunk}`);
    }
  }
});

test('steps arrive one piece each, in order, while the document is still incomplete', () => {
  const { pieces } = assemble(read(samples.sweV0), 64 * 1024);
  const steps = pieces.filter((p) => p.startsWith('["trajectory",'));
  assert.deepEqual(
    steps,
    Array.from({ length: 12 }, (_, k) => JSON.stringify(['trajectory', k])),
  );
});

test('escaped quotes and backslashes split at every position stay inside their string', () => {
  const value = {
    trajectory: [
      { action: 'echo "a\\"b" \\\\', observation: 'ends with a backslash \\' },
      { action: '"""', observation: '\\\\\\"' },
    ],
  };
  const text = JSON.stringify(value, null, 2);
  for (let at = 1; at < text.length; at++) {
    const a = new JsonAssembler();
    const s = new JsonSplitter(splitTrajectoryDocument, a);
    s.write(text.slice(0, at));
    s.write(text.slice(at));
    assert.equal(s.end(), null, `split at ${at}`);
    assert.deepEqual(a.root, value, `split at ${at}`);
  }
});

test('a syntax error is reported with line, column and JSON path; pieces before it are kept', () => {
  const text = '{\n  "trajectory": [\n    {"action": "ls"},\n    {"action": "cat x"} {"action": "oops"}\n  ]\n}';
  const r = readJsonDocument(text);
  assert.equal(r.complete, false);
  assert.deepEqual(r.value, { trajectory: [{ action: 'ls' }, { action: 'cat x' }] });
  assert.deepEqual(r.problems, [
    { message: "expected ',' or ']' in $.trajectory, found '{'", line: 4, column: 25, jsonPath: '$.trajectory' },
  ]);
});

test('a piece that is not valid JSON is dropped and named; its neighbours survive', () => {
  const text = '{"trajectory": [{"action": "ls"}, {"action": tru}, {"action": "pwd"}]}';
  const r = readJsonDocument(text);
  assert.deepEqual(r.value, { trajectory: [{ action: 'ls' }, { action: 'pwd' }] });
  assert.equal(r.problems.length, 1);
  assert.equal(r.problems[0].jsonPath, '$.trajectory[1]');
  assert.match(r.problems[0].message, /^\$\.trajectory\[1\] is not valid JSON/);
});

test('valid JSON takes the native path and reports nothing', () => {
  const r = readJsonDocument(read(samples.miniPreds));
  assert.equal(r.complete, true);
  assert.deepEqual(r.problems, []);
});
