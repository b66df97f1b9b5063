import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignSessions } from '../../../src/core/study/assignment';
import { seededRandom, shuffled } from '../../../src/core/study/random';
import type { StudyFile } from '../../../src/protocol/study';

type Design = Pick<StudyFile, 'tasks' | 'conditions' | 'participants' | 'assignment'>;

function design(tasks: number, participants: number, seed: number): Design {
  return {
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `t${i + 1}`, chain: 'c.json', repo: 'r' })),
    conditions: [
      { name: 'AH', authors: ['recorded', 'human'] },
      { name: 'HH', authors: ['human', 'human'] },
      { name: 'HA', authors: ['human', 'agent'] },
      { name: 'AA', authors: ['recorded', 'recorded'] },
    ],
    participants: Array.from({ length: participants }, (_, i) => `p${String(i + 1).padStart(2, '0')}`),
    assignment: { kind: 'generated', seed },
  };
}

test('generated: every participant solves every task exactly once, in a rotated order', () => {
  const sessions = assignSessions(design(5, 6, 7));
  assert.equal(sessions.size, 6);
  for (const [, tasks] of sessions) {
    assert.equal(tasks.length, 5);
    assert.equal(new Set(tasks.map((t) => t.task)).size, 5, 'no task twice');
  }
  // Counterbalanced order: across participants, the first task is not always the same one.
  assert.ok(new Set([...sessions.values()].map((t) => t[0].task)).size > 1);
});

test('generated: each task gets each condition a person solves in (never a condition with no person step)', () => {
  for (const seed of [0, 1, 42, 20240312]) {
    const sessions = assignSessions(design(4, 3, seed));
    for (const task of ['t1', 't2', 't3', 't4']) {
      const conditions = [...sessions.values()].map((tasks) => tasks.find((t) => t.task === task)!.condition);
      assert.deepEqual(new Set(conditions), new Set(['AH', 'HH', 'HA']), `seed ${seed}, ${task}`);
    }
  }
});

test('generated: balanced: with 2m participants each task gets each condition exactly twice', () => {
  const sessions = assignSessions(design(3, 6, 99));
  for (const task of ['t1', 't2', 't3']) {
    const counts = new Map<string, number>();
    for (const tasks of sessions.values()) {
      const c = tasks.find((t) => t.task === task)!.condition;
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    assert.deepEqual([...counts.values()], [2, 2, 2]);
  }
});

test('generated: the same seed gives the same assignment; another seed another one', () => {
  const a = assignSessions(design(4, 6, 5));
  const b = assignSessions(design(4, 6, 5));
  assert.deepEqual([...a], [...b]);
  const others = [6, 7, 8, 9].map((s) => JSON.stringify([...assignSessions(design(4, 6, s))]));
  assert.ok(
    others.some((o) => o !== JSON.stringify([...a])),
    'the seed changes the assignment',
  );
});

test('explicit: the sessions as written, in the file order of participants', () => {
  const d: Design = {
    ...design(2, 2, 0),
    assignment: {
      kind: 'explicit',
      sessions: {
        p02: [{ task: 't1', condition: 'HH' }],
        p01: [
          { task: 't2', condition: 'AH' },
          { task: 't1', condition: 'HH' },
        ],
      },
    },
  };
  const sessions = assignSessions(d);
  assert.deepEqual([...sessions.keys()], ['p01', 'p02']);
  assert.deepEqual(
    sessions.get('p01')!.map((t) => t.task),
    ['t2', 't1'],
  );
});

test('seeded shuffle is a permutation and reproducible', () => {
  const items = Array.from({ length: 20 }, (_, i) => i);
  const one = shuffled(items, seededRandom(3));
  assert.deepEqual(
    [...one].sort((a, b) => a - b),
    items,
  );
  assert.deepEqual(shuffled(items, seededRandom(3)), one);
  assert.notDeepEqual(one, items);
});
