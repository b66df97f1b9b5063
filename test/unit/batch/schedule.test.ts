import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchScheduler, pathSegment, stepId, type StepKey } from '../../../src/core/batch';

const show = (k: StepKey | null) => (k ? `${k.chainId}:${k.mode}:${k.order}` : null);

test('lanes take turns, one step each, so every chain advances at the same pace', () => {
  const s = new BatchScheduler([
    { chainId: 'a', source: 'm', mode: 'oracle', orders: [1, 2, 3] },
    { chainId: 'b', source: 'm', mode: 'oracle', orders: [1, 2] },
  ]);
  const order = [];
  for (let k = s.next(); k; k = s.next()) order.push(show(k));
  assert.deepEqual(order, ['a:oracle:1', 'b:oracle:1', 'a:oracle:2', 'b:oracle:2', 'a:oracle:3']);
});

test('a Seq lane runs one step at a time, in chain order; an Oracle lane does not wait', () => {
  const s = new BatchScheduler([
    { chainId: 'a', source: 'm', mode: 'seq', orders: [1, 2] },
    { chainId: 'a', source: 'm', mode: 'oracle', orders: [1, 2] },
  ]);
  const first = s.next()!;
  assert.equal(show(first), 'a:seq:1');
  assert.equal(show(s.next()), 'a:oracle:1');
  assert.equal(show(s.next()), 'a:oracle:2');
  assert.equal(s.next(), null, 'Seq step 2 waits for step 1');
  assert.equal(s.finished(first), false);
  assert.equal(show(s.next()), 'a:seq:2');
  assert.equal(s.drained, true);
});

test('finished() says when a lane has nothing left, so its work tree can go', () => {
  const s = new BatchScheduler([{ chainId: 'a', source: 'm', mode: 'oracle', orders: [1, 2] }]);
  const one = s.next()!;
  const two = s.next()!;
  assert.equal(s.finished(two), false);
  assert.equal(s.finished(one), true);
  assert.equal(s.busy, false);
});

test('lanes with nothing pending (all recorded before a resume) are skipped', () => {
  const s = new BatchScheduler([
    { chainId: 'a', source: 'm', mode: 'seq', orders: [] },
    { chainId: 'b', source: 'm', mode: 'seq', orders: [3] },
  ]);
  assert.equal(show(s.next()), 'b:seq:3');
  assert.equal(s.next(), null);
});

test('chain ids become one safe path segment each, and two ids never share one', () => {
  assert.equal(pathSegment('django__django_2024'), 'django_5f_5fdjango_5f2024');
  assert.equal(pathSegment('../x'), '_2e._2fx');
  assert.equal(pathSegment('a/b'), 'a_2fb');
  assert.notEqual(pathSegment('a_2fb'), pathSegment('a/b'));
  assert.equal(stepId({ chainId: 'c 1', source: 'gold', mode: 'seq', order: 2 }), 'c_201/gold/seq/step-2');
});

test('upcoming names the lanes next() hands out next, in turn order, each once, without starting them', () => {
  const s = new BatchScheduler([
    { chainId: 'A', source: 'm', mode: 'seq', orders: [1, 2] },
    { chainId: 'B', source: 'm', mode: 'seq', orders: [1] },
    { chainId: 'C', source: 'm', mode: 'oracle', orders: [1] },
  ]);
  assert.deepEqual(
    s.upcoming(2).map((k) => k.chainId),
    ['A', 'B'],
  );
  assert.equal(s.next()?.chainId, 'A');
  assert.deepEqual(
    s.upcoming(5).map((k) => k.chainId),
    ['B', 'C', 'A'],
  );
  assert.equal(s.next()?.chainId, 'B');
  assert.equal(s.next()?.chainId, 'C');
  // B and C have nothing left to start; A's step 2 waits for step 1 but is still to come.
  assert.deepEqual(
    s.upcoming(5).map((k) => k.chainId),
    ['A'],
  );
});
