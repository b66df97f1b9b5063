// Reading a dataset: ChainSWE JSONL with several chains, SWE-bench instance files, and Parquet
// files as Hugging Face publishes them, written here by hyparquet-writer (the writer of the same
// family as the reader; real Parquet bytes: Snappy pages, INT64 and JSON columns).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readDataset } from '../../../src/infra/batch/dataset';
import { checkSourceCoversDataset, loadSource, parseSourceSpec } from '../../../src/infra/batch/sources';
import { UserError } from '../../../src/core/util/errors';

const demo = JSON.parse(readFileSync(join(__dirname, '../../../demo/chain.json'), 'utf8')) as Record<
  string,
  unknown
> & {
  bug_fixes: Record<string, unknown>[];
};
const tmp = mkdtempSync(join(tmpdir(), 'chainlens-batch-dataset-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const renamed = (suffix: string): Record<string, unknown> & { bug_fixes: Record<string, unknown>[] } => ({
  ...demo,
  continuous_id: `${demo.continuous_id as string}${suffix}`,
  swebench_instance_ids: (demo.swebench_instance_ids as string[]).map((id) => `${id}${suffix}`),
  bug_fixes: demo.bug_fixes.map((f) => ({
    ...f,
    swebench_instance_id: `${f.swebench_instance_id as string}${suffix}`,
  })),
});

/** Test lists as Hugging Face stores them: JSON text (the demo chain already holds them so). */
const asJsonText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

async function writeParquet(path: string, columnData: { name: string; data: unknown[]; type: string }[]) {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  writeFileSync(path, Buffer.from(parquetWriteBuffer({ columnData } as never)));
}

test('a ChainSWE JSONL file is one chain per line', async () => {
  const file = join(tmp, 'chains.jsonl');
  writeFileSync(file, [renamed('-a'), renamed('-b')].map((c) => JSON.stringify(c)).join('\n') + '\n');
  const chains = await readDataset(tmp, ['chains.jsonl']);
  assert.deepEqual(
    chains.map((c) => [
      c.chain.id,
      c.origin.endsWith('chains.jsonl:2') || c.origin.endsWith('chains.jsonl:1'),
      c.chain.steps.length,
    ]),
    [
      [`${demo.continuous_id as string}-a`, true, 3],
      [`${demo.continuous_id as string}-b`, true, 3],
    ],
  );
});

test('a ChainSWE Parquet file (bug_fixes as a JSON column, an INT64 column) reads like its JSONL', async () => {
  const file = join(tmp, 'chains.parquet');
  const chains = [renamed('-p1'), renamed('-p2')];
  await writeParquet(file, [
    { name: 'continuous_id', data: chains.map((c) => c.continuous_id), type: 'STRING' },
    { name: 'repo', data: chains.map((c) => c.repo), type: 'STRING' },
    { name: 'base_commit', data: chains.map((c) => c.base_commit), type: 'STRING' },
    { name: 'docker_image', data: chains.map((c) => c.docker_image), type: 'STRING' },
    { name: 'num_fixes', data: chains.map((c) => BigInt(c.bug_fixes.length)), type: 'INT64' },
    { name: 'bug_fixes', data: chains.map((c) => JSON.stringify(c.bug_fixes)), type: 'STRING' },
  ]);
  const read = await readDataset(tmp, ['chains.parquet']);
  assert.deepEqual(
    read.map((c) => [c.chain.id, c.origin.replace(/^.*\//, ''), c.chain.baseCommit, c.chain.steps.map((s) => s.order)]),
    [
      [`${demo.continuous_id as string}-p1`, 'chains.parquet:1', demo.base_commit, [1, 2, 3]],
      [`${demo.continuous_id as string}-p2`, 'chains.parquet:2', demo.base_commit, [1, 2, 3]],
    ],
  );
  assert.equal(read[0].chain.steps[1].goldPatch, demo.bug_fixes[1].patch);
});

test('SWE-bench instances in Parquet (test lists as JSON text, as on Hugging Face) are one chain', async () => {
  const file = join(tmp, 'instances.parquet');
  const fixes = demo.bug_fixes;
  await writeParquet(file, [
    { name: 'repo', data: fixes.map(() => demo.repo), type: 'STRING' },
    { name: 'instance_id', data: fixes.map((f) => f.swebench_instance_id), type: 'STRING' },
    { name: 'base_commit', data: fixes.map(() => demo.base_commit), type: 'STRING' },
    { name: 'patch', data: fixes.map((f) => f.patch), type: 'STRING' },
    { name: 'test_patch', data: fixes.map((f) => f.test_patch), type: 'STRING' },
    { name: 'problem_statement', data: fixes.map((f) => f.problem_statement), type: 'STRING' },
    { name: 'FAIL_TO_PASS', data: fixes.map((f) => asJsonText(f.FAIL_TO_PASS)), type: 'STRING' },
    { name: 'PASS_TO_PASS', data: fixes.map((f) => asJsonText(f.PASS_TO_PASS)), type: 'STRING' },
  ]);
  const [one] = await readDataset(tmp, ['instances.parquet']);
  assert.deepEqual(
    one.chain.steps.map((s) => s.instanceId),
    fixes.map((f) => f.swebench_instance_id),
  );
  assert.deepEqual(one.chain.steps[1].failToPass, JSON.parse(asJsonText(fixes[1].FAIL_TO_PASS)));
});

test('an unreadable dataset line is named with its file and line, and nothing else is read', async () => {
  const file = join(tmp, 'broken.jsonl');
  writeFileSync(file, `${JSON.stringify(renamed('-ok'))}\n{"continuous_id": "x", "bug_fixes": [\n`);
  await assert.rejects(readDataset(tmp, ['broken.jsonl']), (e: unknown) => {
    assert.ok(e instanceof UserError);
    assert.match(e.message, /broken\.jsonl:2: column \d+: unexpected end of input/);
    return true;
  });
});

test('a file that is not Parquet is refused by name', async () => {
  const file = join(tmp, 'fake.parquet');
  writeFileSync(file, 'PAR1 not really');
  await assert.rejects(readDataset(tmp, ['fake.parquet']), /fake\.parquet is not a readable Parquet file/);
});

test('two files holding the same chain id are refused', async () => {
  writeFileSync(join(tmp, 'one.json'), JSON.stringify(renamed('-dup')));
  writeFileSync(join(tmp, 'two.json'), JSON.stringify(renamed('-dup')));
  await assert.rejects(readDataset(tmp, ['one.json', 'two.json']), (e: unknown) => {
    assert.ok(
      e instanceof UserError &&
        [e.message, ...e.details].some((d) => /two\.json: chain id .* is also the id of .*one\.json/.test(d)),
    );
    return true;
  });
});

test('predictions for instances no chain has are refused, naming the file and id', () => {
  const file = join(tmp, 'preds.jsonl');
  writeFileSync(
    file,
    ['chainlens-demo__invoicekit-101', 'nobody__nothing-1']
      .map((id) => JSON.stringify({ instance_id: id, model_name_or_path: 'm', model_patch: '' }))
      .join('\n') + '\n',
  );
  const source = parseSourceSpec(tmp, 'agent=preds.jsonl');
  assert.deepEqual([source.name, source.kind], ['agent', 'predictions']);
  const ids = new Set(demo.bug_fixes.map((f) => f.swebench_instance_id as string));
  assert.throws(
    () => checkSourceCoversDataset(loadSource(source), ids),
    (e: unknown) =>
      e instanceof UserError && e.details.some((d) => d.includes('preds.jsonl') && d.includes("'nobody__nothing-1'")),
  );
});
