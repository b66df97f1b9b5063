import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparableDiff, only, parse, read, samples } from './fixtures';

const NUMPY_HANDLER = 'pydicom/pixel_data_handlers/numpy_handler.py';

test('SWE-agent v0 (pydicom-1458): twelve steps, in order, with what each did', () => {
  const t = only(parse(samples.sweV0));
  assert.equal(t.source.format, 'swe-agent');
  assert.equal(t.source.version, 'v0');
  assert.equal(t.instanceId, 'pydicom__pydicom-1458');
  assert.equal(t.exitStatus, 'submitted');
  assert.equal(t.workspaceRoot, '/pydicom__pydicom');
  assert.equal(t.modelStats?.costUsd, 1.26719);
  assert.equal(t.modelStats?.apiCalls, 12);
  assert.match(t.problemStatement ?? '', /Pixel Representation attribute should be optional/);
  assert.deepEqual(
    t.steps.map((s) => s.actionKind),
    ['create', 'edit', 'run', 'search', 'view', 'edit', 'edit', 'edit', 'edit', 'run', 'run', 'submit'],
  );
  assert.deepEqual(t.problems, []);
});

test('SWE-agent v0: step 8 is the edit of numpy_handler.py at lines 287-296 that the linter accepted', () => {
  const t = only(parse(samples.sweV0));
  const s = t.steps[8];
  assert.equal(s.actionKind, 'edit');
  assert.match(s.action, /^edit 287:296\n/);
  assert.deepEqual(s.filesTouched, [{ path: NUMPY_HANDLER, access: 'edit', ranges: [{ start: 287, end: 296 }] }]);
  for (const rejected of [5, 6, 7])
    assert.match(t.steps[rejected].actionKindReason, /rejected by the linter; nothing changed/);
  // the `open ... 293` window shows lines 273-372
  assert.deepEqual(t.steps[4].filesTouched, [
    { path: NUMPY_HANDLER, access: 'view', ranges: [{ start: 273, end: 372 }] },
  ]);
});

test('SWE-agent v0: the submission is the model_patch of the run in all_preds.jsonl', () => {
  const t = only(parse(samples.sweV0));
  const pred = JSON.parse(read(samples.swePreds).trim()) as { model_patch: string; instance_id: string };
  assert.equal(pred.instance_id, t.instanceId);
  assert.equal(t.submission, pred.model_patch);
  assert.equal(t.steps[11].patchSoFar?.origin, 'recorded');
  assert.equal(t.steps[11].patchSoFar?.text, pred.model_patch.replace(/^\n+/, ''));
});

test('SWE-agent v0: replaying the edits gives the submitted patch once the scratch file is removed', () => {
  const t = only(parse(samples.sweV0));
  const p = t.steps[10].patchSoFar!;
  assert.equal(p.origin, 'reconstructed');
  assert.equal(p.complete, true);
  assert.equal(comparableDiff(p.text), comparableDiff(t.submission!));
  // at step 8 the fix is in, next to the reproduction script
  assert.match(
    t.steps[8].patchSoFar!.text,
    /^diff --git a\/pydicom\/pixel_data_handlers\/numpy_handler.py b\/.*\n@@ -285,9 \+285,10 @@\n/ms,
  );
  assert.match(t.steps[8].patchSoFar!.text, /^diff --git a\/reproduce_bug.py /m);
  // the failed edits changed nothing: the patch after them is what it was after step 4 (the scratch file only)
  assert.equal(t.steps[7].patchSoFar?.text, t.steps[4].patchSoFar?.text);
  assert.match(
    t.steps[1].patchSoFar!.text,
    /^diff --git a\/reproduce_bug.py b\/reproduce_bug.py\nnew file mode 100644\n--- \/dev\/null\n\+\+\+ b\/reproduce_bug.py\n@@ -0,0 \+1,18 @@\n\+import numpy as np\n/,
  );
  // `rm reproduce_bug.py` takes the scratch file back out
  assert.doesNotMatch(t.steps[10].patchSoFar!.text, /reproduce_bug\.py/);
});

test('SWE-agent v1 (marshmallow-1867): tool calls from history attached to their steps', () => {
  const t = only(parse(samples.sweV1));
  assert.equal(t.source.version, 'v1');
  assert.equal(t.instanceId, 'marshmallow-code__marshmallow-1867');
  assert.equal(t.model, 'gpt-4o');
  assert.equal(t.image, 'swebench/sweb.eval.x86_64.marshmallow-code_1776_marshmallow-1867:latest');
  assert.equal(t.workspaceRoot, '/testbed');
  assert.deepEqual(
    t.steps.map((s) => s.tool?.name),
    ['create', 'edit', 'bash', 'bash', 'find_file', 'open', 'edit', 'edit', 'bash', 'bash', 'submit'],
  );
  assert.deepEqual(t.steps[5].tool?.args, { path: 'src/marshmallow/fields.py', line_number: 1474 });
  assert.equal(t.steps[0].executionTimeSec, 0.2396368359986809);
  assert.deepEqual(t.steps[7].filesTouched, [
    { path: 'src/marshmallow/fields.py', access: 'edit', ranges: [{ start: 1475, end: 1475 }] },
  ]);
  assert.match(t.steps[6].actionKindReason, /rejected/);
});

test('SWE-agent v1: the replayed edits equal the submission after `rm reproduce.py`', () => {
  const t = only(parse(samples.sweV1));
  assert.equal(comparableDiff(t.steps[9].patchSoFar!.text), comparableDiff(t.submission!));
  assert.equal(t.steps[9].patchSoFar!.complete, true);
});

test('SWE-agent v1 with replay_config as a JSON string (model_dump_json) reads the same', () => {
  const doc = JSON.parse(read(samples.sweV1)) as Record<string, unknown>;
  doc.replay_config = JSON.stringify(doc.replay_config);
  const t = only(parse('marshmallow.traj', JSON.stringify(doc)));
  assert.equal(t.model, 'gpt-4o');
  assert.equal(t.image, 'swebench/sweb.eval.x86_64.marshmallow-code_1776_marshmallow-1867:latest');
});

test('SWE-agent retry file: one trajectory per attempt, the chosen one flagged', () => {
  const v1 = JSON.parse(read(samples.sweV1)) as Record<string, unknown>;
  const v0 = JSON.parse(read(samples.sweV0)) as Record<string, unknown>;
  const retry = { attempts: [v1, v0], ...v0, info: { ...(v0.info as object), best_attempt_idx: 1 } };
  const file = parse('pydicom__pydicom-1458.traj', JSON.stringify(retry, null, 2));
  assert.equal(file.trajectories.length, 2);
  const [a, b] = file.trajectories;
  assert.deepEqual(a.attempt, { index: 0, count: 2, chosen: false });
  assert.deepEqual(b.attempt, { index: 1, count: 2, chosen: true });
  assert.equal(a.steps.length, 11);
  assert.equal(b.steps.length, 12);
  assert.equal(a.source.version, 'v1-retry');
  assert.equal(b.steps[8].filesTouched[0].path, NUMPY_HANDLER);
});

test("SWE-agent demonstration (history only, no trajectory): the steps are the history's actions", () => {
  const t = only(parse(samples.sweDemo));
  assert.equal(t.source.format, 'swe-agent');
  assert.deepEqual(
    t.problems.filter((p) => p.severity === 'error'),
    [],
  );
  assert.equal(t.steps.length, 5);
  assert.equal(t.steps[0].action, 'find_file missing_colon.py');
  assert.match(t.steps[0].observation, /Found 1 matches for "missing_colon\.py"/);
  assert.match(t.steps[0].thought, /missing colon/);
  assert.equal(t.steps[1].actionKind, 'view');
  assert.equal(t.steps[t.steps.length - 1].actionKind, 'submit');
  assert.match(t.problemStatement ?? '', /SyntaxError/);
});
