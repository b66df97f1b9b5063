// status.cjs builds its schemas jitless (preferJitlessSchemas, src/infra/run/stateSchemas.ts): the run state and chain copy must be
// accepted, refused and described exactly as with zod's generated parsers. Compared per parse
// (zod's ParseContext.jitless) on the files of a real run and on broken copies of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';
import { ChainSchema } from '../../../src/protocol/chain';
import { RunStateSchema } from '../../../src/protocol/run';
import { describeIssues } from '../../../src/core/formats/issues';
import { runCli } from '../../helpers/cli';
import { makeTinyChain } from '../../helpers/tinyChain';

function same(schema: z.ZodType, value: unknown, what: string): void {
  const jit = schema.safeParse(value);
  const jitless = schema.safeParse(value, { jitless: true });
  assert.equal(jitless.success, jit.success, what);
  if (jit.success && jitless.success) assert.deepEqual(jitless.data, jit.data, what);
  if (!jit.success && !jitless.success) {
    assert.deepEqual(jitless.error.issues, jit.error.issues, what);
    assert.deepEqual(describeIssues('f', jitless.error), describeIssues('f', jit.error), what);
  }
}

test('run state and chain copy: the same data and the same issues without generated parsers', async () => {
  const c = makeTinyChain();
  try {
    const dir = join(c.root, 'work');
    assert.equal((await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir])).code, 0);
    const { stateDir, run } = JSON.parse((await runCli(['status', '--dir', dir, '--json'])).stdout);
    const state = JSON.parse(readFileSync(join(stateDir, 'runs', `${run.id}.json`), 'utf8'));
    const chain = JSON.parse(readFileSync(join(stateDir, 'runs', `${run.id}.chain.json`), 'utf8'));
    const broken: [string, (s: Record<string, unknown>) => void][] = [
      ['as saved', () => {}],
      ['extra key', (s) => (s.extra = 1)],
      ['missing key', (s) => delete s[Object.keys(s)[0]]],
      ['wrong type', (s) => (s[Object.keys(s)[1]] = 42)],
      ['null', (s) => (s[Object.keys(s)[2]] = null)],
      ['steps not an array', (s) => (s.steps = {})],
      ['a step broken', (s) => ((s.steps as Record<string, unknown>[])[0].order = 'one')],
      ['a step empty', (s) => ((s.steps as unknown[])[1] = {})],
    ];
    for (const [what, edit] of broken) {
      for (const [schema, original, name] of [
        [RunStateSchema, state, 'run'],
        [ChainSchema, chain, 'chain'],
      ] as const) {
        const copy = structuredClone(original);
        edit(copy);
        same(schema, copy, `${name}: ${what}`);
      }
    }
    same(RunStateSchema, 'not an object', 'a string');
  } finally {
    c.cleanup();
  }
});
