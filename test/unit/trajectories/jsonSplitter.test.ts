import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  JsonAssembler,
  JsonSplitter,
  readJsonDocument,
  skipTrajectoryValue,
  splitTrajectoryDocument,
  wholeTrajectoryValue,
} from '../../../src/core/trajectories';
import { read, samples } from './fixtures';

function assemble(
  text: string,
  chunk: number,
): { root: unknown; stop: ReturnType<JsonSplitter['end']>; pieces: string[] } {
  const pieces: string[] = [];
  const a = new JsonAssembler((path) => pieces.push(JSON.stringify(path)), wholeTrajectoryValue);
  const s = new JsonSplitter(splitTrajectoryDocument, a, skipTrajectoryValue);
  for (let i = 0; i < text.length; i += chunk) s.write(text.slice(i, i + chunk));
  return { root: a.root, stop: s.end(), pieces };
}

/** What JSON.parse reads, less the SWE-agent steps' `query`, which the reader skips. */
function withoutQueries(text: string): unknown {
  const doc = JSON.parse(text) as { trajectory?: Record<string, unknown>[] };
  for (const step of doc.trajectory ?? []) delete step.query;
  return doc;
}

test("fed in chunks of any size, the pieces rebuild what JSON.parse reads, less the steps' query", () => {
  for (const path of [samples.sweV0, samples.sweV1, samples.miniLegacy, samples.miniPreds]) {
    const text = read(path);
    for (const chunk of [1, 7, 4096, text.length]) {
      const { root, stop } = assemble(text, chunk);
      assert.equal(stop, null, `${path} in chunks of ${chunk}`);
      assert.deepEqual(root, withoutQueries(text), `${path} in chunks of ${chunk}`);
    }
  }
});

test("a step's query is skipped whatever it holds, split at every position; the step stays whole", () => {
  const value = {
    trajectory: [
      { action: 'ls', query: [{ role: 'user', content: 'a "quoted" \\ ] } [ { text' }, 42, null], observation: 'x' },
      { query: 'a string query', action: 'pwd' },
      { action: 'cat', query: -1.5e3 },
    ],
  };
  const text = JSON.stringify(value, null, 1);
  const expected = { trajectory: [{ action: 'ls', observation: 'x' }, { action: 'pwd' }, { action: 'cat' }] };
  for (let at = 1; at < text.length; at++) {
    const { root, stop } = assemble(text.slice(0, at) + text.slice(at), at);
    assert.equal(stop, null, `split at ${at}`);
    assert.deepEqual(root, expected, `split at ${at}`);
  }
});

test('a document cut inside a step keeps the steps before it and drops the cut one', () => {
  const text = JSON.stringify({
    trajectory: [
      { action: 'ls', observation: 'a' },
      { action: 'pwd', observation: 'b' },
    ],
  });
  const { root, stop } = assemble(text.slice(0, text.indexOf('"observation":"b"')), 5);
  assert.deepEqual(root, { trajectory: [{ action: 'ls', observation: 'a' }] });
  assert.match(stop?.message ?? '', /the JSON ends early \(inside \$\.trajectory\[1\]/);
});

test('steps arrive one piece each, in order, while the document is still incomplete', () => {
  const { pieces } = assemble(read(samples.sweV0), 64 * 1024);
  // a step's members arrive as pieces too; the step itself is delivered once, complete
  const steps = pieces.filter((p) => /^\["trajectory",\d+\]$/.test(p));
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
  assert.equal(r.problems[0].jsonPath, '$.trajectory[1].action');
  assert.match(r.problems[0].message, /^\$\.trajectory\[1\]\.action is not valid JSON/);
});

test('valid JSON takes the native path and reports nothing', () => {
  const r = readJsonDocument(read(samples.miniPreds));
  assert.equal(r.complete, true);
  assert.deepEqual(r.problems, []);
});
