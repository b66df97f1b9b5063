import { test } from 'node:test';
import assert from 'node:assert/strict';
import { only, parse, read, samples } from './fixtures';

/** The first `fraction` of a file, as a crashed agent or a cut download leaves it. */
function cut(text: string, fraction: number): string {
  return text.slice(0, Math.floor(text.length * fraction));
}

test('a .traj cut mid-JSON keeps every step completed before the cut and says where it stopped', () => {
  const full = only(parse(samples.sweV0));
  const text = read(samples.sweV0);
  for (const fraction of [0.1, 0.2, 0.3]) {
    const file = parse('pydicom.traj', cut(text, fraction));
    const t = only(file);
    const stop = file.problems.find((p) => /ends early/.test(p.message));
    assert.ok(stop, `a problem for the cut at ${fraction}`);
    assert.equal(stop.file, 'pydicom.traj');
    assert.ok(stop.line! > 1 && stop.column! >= 1);
    // the step being written when the file stopped is named, and exactly the ones before it are kept
    const inside = /\$\.trajectory\[(\d+)\]/.exec(stop.jsonPath ?? '');
    assert.ok(inside, stop.jsonPath);
    assert.equal(t.steps.length, Number(inside[1]));
    assert.ok(t.steps.length > 0 && t.steps.length < 12);
    t.steps.forEach((s, k) => {
      assert.equal(s.action, full.steps[k].action);
      assert.equal(s.observation, full.steps[k].observation);
    });
    assert.equal(t.submission, null);
  }
});

test('a cut after the trajectory list still gives all steps (history, info lost)', () => {
  const text = read(samples.sweV1);
  const file = parse('marshmallow-code__marshmallow-1867.traj', cut(text, 0.6));
  const t = only(file);
  assert.equal(t.steps.length, 11);
  assert.equal(t.instanceId, 'marshmallow-code__marshmallow-1867'); // from the file name
  assert.match(file.problems[0].message, /ends early \(inside \$\.history\[\d+\]\); kept what came before/);
});

test('a legacy mini-swe-agent list cut mid-message keeps the complete messages', () => {
  const file = parse('run.traj.json', cut(read(samples.miniLegacy), 0.5));
  const t = only(file);
  assert.ok(t.steps.length >= 1 && t.steps.length < 10);
  assert.match(file.problems[0].message, /the JSON ends early \(inside \$\[\d+\]\)/);
});

test('wrong types: reported with their JSON path, the rest still read', () => {
  const doc = JSON.parse(read(samples.sweV0)) as { trajectory: Record<string, unknown>[]; info: unknown };
  doc.trajectory[3].action = 42;
  doc.trajectory[5].observation = ['not', 'text'];
  doc.info = 'oops';
  const file = parse('pydicom.traj', JSON.stringify(doc));
  const t = only(file);
  assert.equal(t.steps.length, 12);
  const where = t.problems.map((p) => [p.severity, p.jsonPath, p.message]);
  assert.deepEqual(where, [
    ['warning', '$.info', 'expected an object, found a string'],
    ['warning', '$.trajectory[5].observation', 'expected a string, found an array'],
  ]);
  // a number where text belongs is kept as its text
  assert.equal(t.steps[3].action, '42');
  assert.equal(t.steps[5].observation, '');
});

test('a trajectory that is not a list: an error naming it, no steps', () => {
  const doc = JSON.parse(read(samples.sweV0)) as Record<string, unknown>;
  doc.trajectory = { steps: 3 };
  const t = only(parse('pydicom.traj', JSON.stringify(doc)));
  assert.equal(t.steps.length, 0);
  assert.deepEqual(
    t.problems.map((p) => [p.severity, p.jsonPath, p.message]),
    [['error', '$.trajectory', 'expected a list, found an object']],
  );
});

test('output.jsonl with a bad line: that line is skipped and named by number and byte offset', () => {
  const [first, second] = read(samples.ohV0).trim().split('\n');
  const text = `${first}\n{"instance_id": "broken", "history": [\n${second}\n`;
  const file = parse('output.jsonl', text);
  assert.deepEqual(
    file.trajectories.map((t) => [t.instanceId, t.source.line]),
    [
      ['ponylang__ponyc-4595', 1],
      ['ponylang__ponyc-4593', 3],
    ],
  );
  assert.equal(file.problems.length, 1);
  const p = file.problems[0];
  assert.equal(p.line, 2);
  assert.equal(p.byteOffset, Buffer.byteLength(first) + 1);
  assert.match(p.message, /^line 2 is not valid JSON .*; skipped$/);
});

test('output.jsonl cut in its last line: the earlier lines are read, the cut one reported', () => {
  const text = read(samples.ohV0);
  const nl = text.indexOf('\n');
  const file = parse('output.jsonl', text.slice(0, nl + 1 + 5000));
  assert.deepEqual(
    file.trajectories.map((t) => t.instanceId),
    ['ponylang__ponyc-4595'],
  );
  assert.match(file.problems[0].message, /^line 2 is cut off/);
});

test('an unknown SDK event kind is reported with its line and skipped', () => {
  const lines = read(samples.ohV1).trim().split('\n');
  lines.splice(
    5,
    0,
    JSON.stringify({ id: 'x1', timestamp: '2026-03-02T10:15:20', source: 'agent', kind: 'HoloDeckEvent', payload: {} }),
  );
  const file = parse('events.jsonl', lines.join('\n') + '\n');
  const t = only(file);
  assert.equal(t.steps.length, 7);
  assert.deepEqual(
    t.problems.map((p) => [p.severity, p.line, p.message]),
    [['warning', 6, 'unknown OpenHands event kind "HoloDeckEvent"; skipped']],
  );
});

test('an unknown V0 action is kept as a plain step with a warning', () => {
  const [first] = read(samples.ohV0).trim().split('\n');
  const rec = JSON.parse(first) as { history: Record<string, unknown>[] };
  rec.history.splice(5, 0, {
    id: 999,
    timestamp: '2025-04-30T16:32:57',
    source: 'agent',
    message: 'teleport',
    action: 'teleport',
    args: { where: 'mars' },
  });
  const t = only(parse('output.jsonl', JSON.stringify(rec) + '\n'));
  const odd = t.steps.find((s) => s.tool?.name === 'teleport');
  assert.equal(odd?.actionKind, 'other');
  assert.deepEqual(
    t.problems.map((p) => [p.line, p.jsonPath, p.message]),
    [[1, '$.history[5].action', 'unknown OpenHands action "teleport"; shown as a plain step']],
  );
});

test('empty, non-JSON and unknown JSON files: nothing read, a problem at line 1', () => {
  for (const [text, message] of [
    ['', /the file is empty/],
    ['hello\n', /not a JSON or JSONL file/],
    ['{"chain": []}', /not a trajectory format ChainLens knows/],
  ] as const) {
    const file = parse('x.json', text);
    assert.equal(file.trajectories.length, 0);
    assert.equal(file.problems[0].line, 1);
    assert.match(file.problems[0].message, message);
  }
});
