// A broken chain file's problems land on the lines a person has to fix (Problems panel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadChain } from '../../../src/core/formats/loadChain';
import { UserError } from '../../../src/core/util/errors';
import { jsonPathSegments, locateProblems } from '../../../src/vscode/chainFile/problemLocations';

const demoChain = readFileSync(resolve(__dirname, '../../../demo/chain.json'), 'utf8');

function errorOf(file: string, text: string): UserError {
  try {
    loadChain(file, text);
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  assert.fail(`${file} loaded without an error`);
}

const lineIndexOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle));

test('JSON paths split into keys and indexes, quoted keys included', () => {
  assert.deepEqual(jsonPathSegments('$.bug_fixes[1].order'), ['bug_fixes', 1, 'order']);
  assert.deepEqual(jsonPathSegments('$["odd key"][0]'), ['odd key', 0]);
  assert.deepEqual(jsonPathSegments('$'), []);
});

test("a wrong field's problem points at that field's key; a missing field at its object", () => {
  const file = '/chains/demo.json';
  const chain = JSON.parse(demoChain);
  delete chain.base_commit;
  chain.bug_fixes[1].order = 'two';
  const text = JSON.stringify(chain, null, 2);
  const error = errorOf(file, text);
  const problems = locateProblems(file, text, error.details, error.message);
  assert.equal(problems.length, 2);
  const order = problems.find((p) => p.message.startsWith('$.bug_fixes[1].order'))!;
  assert.equal(order.line, lineIndexOf(text, '"order": "two"'));
  assert.equal(text.split('\n')[order.line].slice(order.column, order.endColumn), '"order"');
  const missing = problems.find((p) => p.message.startsWith('$.base_commit'))!;
  assert.match(missing.message, /missing required field/);
  assert.equal(missing.line, 0, 'the chain object starts on the first line');
});

test('a JSON syntax error lands on its line and column', () => {
  const file = '/chains/bad.json';
  const text = '{\n  "continuous_id": "x",\n  "repo": "a/b",\n}\n';
  const error = errorOf(file, text);
  const [problem] = locateProblems(file, text, error.details, error.message);
  assert.equal(problem.line, 3);
  assert.equal(problem.column, 0);
});

test('JSONL: a problem of record 2 lands on line 2, at its field', () => {
  const file = '/chains/two.jsonl';
  const good = JSON.stringify(JSON.parse(demoChain));
  const bad = JSON.parse(demoChain);
  bad.continuous_id = 'second';
  bad.repo = 42;
  const text = `${good}\n${JSON.stringify(bad)}\n`;
  let error: UserError | undefined;
  try {
    loadChain(file, text, { chainId: 'second' });
  } catch (e) {
    error = e as UserError;
  }
  assert.ok(error instanceof UserError);
  const [problem] = locateProblems(file, text, error.details, error.message);
  assert.equal(problem.line, 1);
  assert.equal(text.split('\n')[1].slice(problem.column, problem.endColumn), '"repo"');
});

test('details without a position, or about another file, are kept (first line) rather than dropped', () => {
  const problems = locateProblems('/c.json', '{}\n', ['available: a, b', '/other.json: $.x: bad'], 'fallback');
  assert.deepEqual(
    problems.map((p) => [p.line, p.message]),
    [
      [0, 'available: a, b'],
      [0, '/other.json: $.x: bad'],
    ],
  );
  assert.equal(locateProblems('/c.json', '{}', [], 'the file is empty')[0].message, 'the file is empty');
});

test('the demo chain itself loads (the fixture the e2e tests break on purpose)', () => {
  assert.equal(loadChain(join('/x', 'chain.json'), demoChain).steps.length, 3);
});
