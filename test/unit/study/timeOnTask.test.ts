import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  overTimeLimit,
  recordActivity,
  startClock,
  stopClock,
  totalEdits,
  wallMs,
  type Activity,
  type StepClock,
} from '../../../src/core/study/timeOnTask';

const GAP = 120_000;
const S = 1000;

function play(events: [number, Activity][], start = 0, gap = GAP): StepClock {
  let clock = startClock(start);
  for (const [at, activity] of events) clock = recordActivity(clock, at, activity, gap);
  return clock;
}

test('gaps up to the idle gap count as active; a longer gap is a pause, wholly excluded', () => {
  const clock = play([
    [30 * S, { kind: 'edit', file: 'a.py' }],
    [60 * S, { kind: 'edit', file: 'a.py' }],
    // 5 minutes without anything: idle
    [360 * S, { kind: 'edit', file: 'b.py' }],
    [400 * S, { kind: 'navigate' }],
  ]);
  assert.equal(clock.activeMs, 100 * S); // 30 + 30 + 40
  assert.deepEqual(clock.pauses, [{ from: 60 * S, to: 360 * S, reason: 'idle' }]);
  assert.deepEqual(clock.editsPerFile, { 'a.py': 2, 'b.py': 1 });
  assert.equal(totalEdits(clock), 3);
});

test('a gap of exactly the idle gap still counts; one ms more does not', () => {
  assert.equal(play([[GAP, { kind: 'edit', file: 'x' }]]).activeMs, GAP);
  assert.equal(play([[GAP + 1, { kind: 'edit', file: 'x' }]]).activeMs, 0);
});

test('the idle gap is configurable', () => {
  const events: [number, Activity][] = [[10 * S, { kind: 'navigate' }]];
  assert.equal(play(events, 0, 5 * S).activeMs, 0);
  assert.equal(play(events, 0, 15 * S).activeMs, 10 * S);
});

test('time with the window unfocused is not active, and refocusing starts counting again', () => {
  const clock = play([
    [10 * S, { kind: 'edit', file: 'a' }],
    [20 * S, { kind: 'blur' }],
    [50 * S, { kind: 'focus' }],
    [60 * S, { kind: 'edit', file: 'a' }],
  ]);
  assert.equal(clock.activeMs, 30 * S); // 0-10, 10-20, 50-60
  assert.deepEqual(clock.pauses, [{ from: 20 * S, to: 50 * S, reason: 'unfocused' }]);
});

test('an explicit pause stops the clock and ignores edits until resumed', () => {
  const clock = play([
    [10 * S, { kind: 'pause' }],
    [20 * S, { kind: 'edit', file: 'a' }],
    [70 * S, { kind: 'resume' }],
    [80 * S, { kind: 'test' }],
  ]);
  assert.equal(clock.activeMs, 20 * S);
  assert.deepEqual(clock.pauses, [{ from: 10 * S, to: 70 * S, reason: 'paused' }]);
  assert.equal(clock.testRuns, 1);
  assert.deepEqual(clock.editsPerFile, {});
});

test('the log keeps opens, test runs and reloads (not every keystroke)', () => {
  const clock = play([
    [1 * S, { kind: 'open', file: 'a.py' }],
    [2 * S, { kind: 'edit', file: 'a.py' }],
    [3 * S, { kind: 'reload' }],
    [4 * S, { kind: 'test' }],
  ]);
  assert.deepEqual(
    clock.log.map((e) => e.kind),
    ['open', 'reload', 'test'],
  );
  assert.equal(clock.reloads, 1);
});

test('stop ends the clock: wall time is start to submission, later activity is ignored', () => {
  let clock = play([[30 * S, { kind: 'edit', file: 'a' }]], 10 * S);
  clock = stopClock(clock, 400 * S, GAP);
  assert.equal(clock.endedAt, 400 * S);
  assert.equal(wallMs(clock, 999 * S), 390 * S);
  assert.equal(clock.activeMs, 20 * S);
  assert.equal(recordActivity(clock, 401 * S, { kind: 'edit', file: 'a' }, GAP), clock);
  assert.equal(stopClock(clock, 500 * S, GAP), clock);
});

test('activity stamped before the last one (a clock step back) adds nothing negative', () => {
  const clock = play([
    [50 * S, { kind: 'edit', file: 'a' }],
    [40 * S, { kind: 'edit', file: 'a' }],
  ]);
  assert.equal(clock.activeMs, 50 * S);
  assert.equal(clock.lastActivityAt, 50 * S);
});

test('time limit: by wall time', () => {
  const clock = startClock(0);
  assert.equal(overTimeLimit(clock, 59 * S, 60 * S), false);
  assert.equal(overTimeLimit(clock, 60 * S, 60 * S), true);
  assert.equal(overTimeLimit(clock, 10_000 * S, undefined), false);
});
