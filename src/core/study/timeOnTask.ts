/**
 * Time on task for one step a person solves (docs/study.md "Time on task"): wall time from the
 * step's start, and active time, the sum of the gaps between consecutive activities (editing,
 * navigating, running tests, focusing the window) that are at most the idle gap long while the
 * window is focused and the session is not paused. A longer gap counts as a pause, wholly: someone
 * who stops for ten minutes was not working for the first two of them either. Pure: every function
 * takes the time (ms since the epoch) from its caller, so the tests inject it.
 */

export type ActivityKind = 'edit' | 'open' | 'navigate' | 'test' | 'focus' | 'blur' | 'reload' | 'pause' | 'resume';

export interface Activity {
  readonly kind: ActivityKind;
  /** Work-tree-relative file, for edit/open. */
  readonly file?: string;
}

export type PauseReason = 'idle' | 'unfocused' | 'paused';

export interface Pause {
  readonly from: number;
  readonly to: number;
  readonly reason: PauseReason;
}

/** The small event log a study keeps (not every keystroke: edits are counted per file). */
export interface LoggedEvent {
  readonly at: number;
  readonly kind: 'open' | 'test' | 'reload' | 'pause' | 'resume' | 'focus' | 'blur' | 'submit';
  readonly file?: string;
}

export interface StepClock {
  readonly startedAt: number;
  /** Set once the step is submitted; the clock then ignores activity. */
  readonly endedAt: number | null;
  readonly activeMs: number;
  readonly lastActivityAt: number;
  readonly focused: boolean;
  readonly paused: boolean;
  readonly pauses: readonly Pause[];
  readonly editsPerFile: Readonly<Record<string, number>>;
  readonly testRuns: number;
  readonly reloads: number;
  readonly log: readonly LoggedEvent[];
}

export function startClock(now: number, focused = true): StepClock {
  return {
    startedAt: now,
    endedAt: null,
    activeMs: 0,
    lastActivityAt: now,
    focused,
    paused: false,
    pauses: [],
    editsPerFile: {},
    testRuns: 0,
    reloads: 0,
    log: [],
  };
}

/** Credits the time since the last activity when it was active, else records it as a pause. */
function settle(clock: StepClock, now: number, idleGapMs: number): StepClock {
  const gap = Math.max(0, now - clock.lastActivityAt);
  if (clock.paused)
    return { ...clock, pauses: [...clock.pauses, { from: clock.lastActivityAt, to: now, reason: 'paused' }] };
  if (!clock.focused)
    return gap > 0
      ? { ...clock, pauses: [...clock.pauses, { from: clock.lastActivityAt, to: now, reason: 'unfocused' }] }
      : clock;
  if (gap <= idleGapMs) return { ...clock, activeMs: clock.activeMs + gap };
  return { ...clock, pauses: [...clock.pauses, { from: clock.lastActivityAt, to: now, reason: 'idle' }] };
}

/** The clock after `activity` at `now`; activities out of order (now before the last) count as at the last. */
export function recordActivity(clock: StepClock, now: number, activity: Activity, idleGapMs: number): StepClock {
  if (clock.endedAt !== null) return clock;
  const at = Math.max(now, clock.lastActivityAt);
  // While paused only resume (and focus changes) matter; edits do not restart a paused clock silently.
  if (clock.paused && activity.kind !== 'resume' && activity.kind !== 'blur' && activity.kind !== 'focus') return clock;
  let next = settle(clock, at, idleGapMs);
  next = { ...next, lastActivityAt: at };
  switch (activity.kind) {
    case 'edit':
      if (activity.file)
        next = {
          ...next,
          editsPerFile: { ...next.editsPerFile, [activity.file]: (next.editsPerFile[activity.file] ?? 0) + 1 },
        };
      return next;
    case 'navigate':
      return next;
    case 'open':
      return { ...next, log: [...next.log, { at, kind: 'open', file: activity.file }] };
    case 'test':
      return { ...next, testRuns: next.testRuns + 1, log: [...next.log, { at, kind: 'test' }] };
    case 'reload':
      return { ...next, reloads: next.reloads + 1, log: [...next.log, { at, kind: 'reload' }] };
    case 'focus':
      return { ...next, focused: true, log: [...next.log, { at, kind: 'focus' }] };
    case 'blur':
      return { ...next, focused: false, log: [...next.log, { at, kind: 'blur' }] };
    case 'pause':
      return { ...next, paused: true, log: [...next.log, { at, kind: 'pause' }] };
    case 'resume':
      return { ...next, paused: false, log: [...next.log, { at, kind: 'resume' }] };
  }
}

/** Ends the clock at submission; the time since the last activity counts as for any activity. */
export function stopClock(clock: StepClock, now: number, idleGapMs: number): StepClock {
  if (clock.endedAt !== null) return clock;
  const at = Math.max(now, clock.lastActivityAt);
  const settled = settle(clock, at, idleGapMs);
  return { ...settled, lastActivityAt: at, endedAt: at, log: [...settled.log, { at, kind: 'submit' }] };
}

/** Wall time: start to submission, or to `now` while the step is open. */
export function wallMs(clock: StepClock, now: number): number {
  return Math.max(0, (clock.endedAt ?? now) - clock.startedAt);
}

export function totalEdits(clock: StepClock): number {
  return Object.values(clock.editsPerFile).reduce((a, b) => a + b, 0);
}

/** Whether the step has run past the study's time limit (wall time; the limit warns, it does not stop). */
export function overTimeLimit(clock: StepClock, now: number, limitMs: number | undefined): boolean {
  return limitMs !== undefined && wallMs(clock, now) >= limitMs;
}
