import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  diffSections,
  recordToMiniSweAgent,
  recordToTrajectory,
  worktreeChange,
} from '../../../src/core/agent/recorder';
import { parseTrajectory } from '../../../src/core/trajectories';
import type { AgentRecord } from '../../../src/protocol/agent';

const fileA1 = 'diff --git a/a.py b/a.py\nindex 1..2 100644\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n';
const fileA2 = 'diff --git a/a.py b/a.py\nindex 1..3 100644\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+z\n';
const fileB =
  'diff --git a/b.py b/b.py\nnew file mode 100644\nindex 0..1\n--- /dev/null\n+++ b/b.py\n@@ -0,0 +1 @@\n+new\n';

test('diffSections keys each file and tells added from modified', () => {
  const s = diffSections(fileA1 + fileB);
  assert.deepEqual([...s.keys()], ['a.py', 'b.py']);
  assert.equal(s.get('b.py')!.change, 'added');
  assert.equal(s.get('a.py')!.text, fileA1);
});

test('worktreeChange reports only the files whose change moved since the last observation', () => {
  assert.equal(worktreeChange(fileA1, fileA1, 'c1', 't'), null);
  const first = worktreeChange('', fileA1 + fileB, 'c1', 't')!;
  assert.deepEqual(first.files, [
    { path: 'a.py', change: 'modified' },
    { path: 'b.py', change: 'added' },
  ]);
  const second = worktreeChange(fileA1 + fileB, fileA2 + fileB, 'c2', 't')!;
  assert.deepEqual(second.files, [{ path: 'a.py', change: 'modified' }]);
  assert.equal(second.diff, fileA2);
  assert.equal(second.patch, fileA2 + fileB);
  // an edit undone: the file no longer differs from the step start
  assert.deepEqual(worktreeChange(fileA2 + fileB, fileB, 'c3', 't')!.files, [{ path: 'a.py', change: 'modified' }]);
});

const record: AgentRecord = {
  schema: 1,
  runId: 'seq-1',
  step: 1,
  instanceId: 'o__r-1',
  agent: 'bot',
  start: 'a'.repeat(40),
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:01:30.000Z',
  exitStatus: 'submitted',
  submission: fileA1,
  problemStatement: 'Fix a.',
  workspaceRoot: '/w',
  events: [
    {
      kind: 'tool',
      id: 'call-1',
      tool: 'get_current_step',
      args: {},
      result: '{"step":1}',
      isError: false,
      at: '2026-01-01T00:00:01.000Z',
      durationMs: 40,
    },
    {
      kind: 'worktree',
      id: 'change-2',
      files: [{ path: 'a.py', change: 'modified' }],
      diff: fileA1,
      patch: fileA1,
      at: '2026-01-01T00:01:00.000Z',
    },
    {
      kind: 'tool',
      id: 'call-3',
      tool: 'submit_step',
      args: { step: 1 },
      result: '{"submitted":1}',
      isError: false,
      at: '2026-01-01T00:01:29.000Z',
      durationMs: 900,
    },
  ],
};

test('the record becomes a Trajectory with tool calls, edits, patch so far and times', () => {
  const t = recordToTrajectory(record, 'step-1.traj.json');
  assert.deepEqual(
    t.steps.map((s) => s.actionKind),
    ['view', 'edit', 'submit'],
  );
  assert.equal(t.steps[1].filesTouched[0].path, 'a.py');
  assert.equal(t.steps[2].patchSoFar?.text, fileA1);
  assert.equal(t.steps[0].patchSoFar, null);
  assert.equal(t.steps[2].executionTimeSec, 0.9);
  assert.equal(t.submission, fileA1);
  assert.equal(t.model, 'bot');
});

test('the mini-swe-agent 1.1 export reads back through the mini-swe-agent adapter', () => {
  const doc = recordToMiniSweAgent(record, new Date('2026-01-01T00:05:00Z'));
  assert.equal(doc.trajectory_format, 'mini-swe-agent-1.1');
  assert.equal((doc.info as { time_spent_s: number }).time_spent_s, 90);
  const file = parseTrajectory('step-1.traj.json', JSON.stringify(doc));
  assert.equal(file.format, 'mini-swe-agent');
  const [t] = file.trajectories;
  assert.deepEqual(
    t.steps.map((s) => s.tool?.name),
    ['get_current_step', 'worktree_change', 'submit_step'],
  );
  assert.equal(t.submission, fileA1);
  assert.equal(t.exitStatus, 'submitted');
  assert.equal(t.problemStatement, 'Fix a.');
  assert.equal(t.steps[1].observation, fileA1);
});
