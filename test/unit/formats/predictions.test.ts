import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPredictionsMatchChain, loadPredictions } from '../../../src/core/formats/predictions';
import { loadChain } from '../../../src/core/formats/loadChain';
import { UserError } from '../../../src/core/util/errors';

const FORMATS = join(__dirname, '../../fixtures/formats');
const read = (name: string) => readFileSync(join(FORMATS, name), 'utf8');

test('SWE-agent predictions JSONL (real pydicom run) is read by instance id', () => {
  const preds = loadPredictions('preds.jsonl', read('sweagent_all_preds__pydicom__pydicom-1458.jsonl'));
  const p = preds.get('pydicom__pydicom-1458');
  assert.ok(p);
  assert.match(p.model, /^gpt4__/);
  assert.match(p.patch ?? '', /numpy_handler\.py/);
});

test("mini-swe-agent's preds.json (a dict keyed by instance id) is read", () => {
  const preds = loadPredictions('preds.json', read('minisweagent_preds_example.json'));
  assert.deepEqual([...preds.keys()], ['swe-agent__test-repo-1']);
  assert.equal(preds.get('swe-agent__test-repo-1')?.model, 'anthropic/claude-sonnet-4-20250514');
});

test('a JSON list of predictions, with an empty and a null patch, is read', () => {
  const preds = loadPredictions(
    'p.json',
    JSON.stringify([
      { instance_id: 'a', model_name_or_path: 'm', model_patch: '' },
      { instance_id: 'b', model_name_or_path: 'm', model_patch: null },
    ]),
  );
  assert.equal(preds.get('a')?.patch, '');
  assert.equal(preds.get('b')?.patch, null);
});

test('predictions with bad fields, duplicates or a key/id mismatch are errors with file, line and path', () => {
  const jsonl =
    '{"instance_id": "a", "model_patch": "x"}\n{"instance_id": 3, "model_patch": "x"}\n{"instance_id": "a", "model_patch": "y"}\n';
  try {
    loadPredictions('p.jsonl', jsonl);
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof UserError);
    assert.ok(e.details.includes('p.jsonl:2: $.instance_id: expected string, received number'), e.details.join('\n'));
    assert.ok(
      e.details.some((d) => d.startsWith("p.jsonl:3: $.instance_id: duplicate prediction for 'a'")),
      e.details.join('\n'),
    );
  }
  assert.throws(
    () => loadPredictions('p.json', JSON.stringify({ k: { instance_id: 'other', model_patch: '' } })),
    /invalid predictions/,
  );
});

test('predictions naming instances that are not in the chain are rejected, naming them', () => {
  const chain = loadChain('pydicom.json', read('swebench_instance__pydicom__pydicom-1458.json'));
  const preds = loadPredictions('preds.json', read('minisweagent_preds_example.json'));
  try {
    checkPredictionsMatchChain('preds.json', preds, chain);
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof UserError);
    assert.match(e.message, /not in chain 'pydicom__pydicom-1458'/);
    assert.ok(e.details.some((d) => d.includes("'swe-agent__test-repo-1'")));
  }
});
