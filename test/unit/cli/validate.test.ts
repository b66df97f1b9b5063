import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../../helpers/cli';

const ROOT = resolve(__dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'chainlens-validate-'));

test('validate: the demo chain is valid (exit 0, one summary line)', async () => {
  const r = await runCli(['validate', join(ROOT, 'demo/chain.json')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /valid chainswe chain 'chainlens-demo_invoicekit_20240312' \(chainlens-demo\/invoicekit @ 5a6d67e1afa1, 3 steps\)/,
  );
});

test('validate: a JSONL dataset is checked chain by chain, and one chain can be picked', async () => {
  const all = await runCli(['validate', join(ROOT, 'demo/chain.jsonl')]);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, /valid ChainSWE dataset of 2 chains/);
  const one = await runCli([
    'validate',
    join(ROOT, 'demo/chain.jsonl'),
    '--chain-id',
    'chainlens-demo_invoicekit_20240312_two_step',
  ]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /2 steps/);
});

test('validate: invalid input exits 1 with exactly one line per problem, naming file, line and JSON path', async () => {
  const file = join(dir, 'bad.jsonl');
  writeFileSync(
    file,
    JSON.stringify({
      continuous_id: 'a',
      repo: 'o/r',
      base_commit: 'f'.repeat(40),
      bug_fixes: [
        {
          order: 1,
          swebench_instance_id: 'x',
          problem_statement: '',
          patch: '',
          test_patch: 1,
          FAIL_TO_PASS: [],
          PASS_TO_PASS: [],
        },
      ],
    }) + '\n{"continuous_id": "b"}\n',
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 1);
  const lines = r.stdout.trim().split('\n');
  assert.deepEqual(lines, [
    `${file}:1: $.bug_fixes[0].test_patch: expected string, received number`,
    `${file}:2: $.repo: missing required field (expected string)`,
    `${file}:2: $.base_commit: missing required field (expected string)`,
    `${file}:2: $.bug_fixes: missing required field (expected array)`,
  ]);
});

test('validate: a missing file and a usage mistake are told apart (exit 1 vs 2)', async () => {
  const missing = await runCli(['validate', join(dir, 'nope.json')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /chain file .*nope\.json does not exist/);
  const usage = await runCli(['validate']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /expected one chain file/);
  const unknown = await runCli(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command 'frobnicate'/);
});
