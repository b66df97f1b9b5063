import { dirname, join } from 'node:path';
import { recordActivity, startClock, stopClock, type Activity, type StepClock } from '../../core/study/timeOnTask';
import { UserError } from '../../core/util/errors';
import type { RunState, StepAuthor } from '../../protocol/run';
import type { StudyAuthor } from '../../protocol/study';
import type { ParticipantSession, StudyRun } from '../../protocol/studyRecords';
import type { RepoSource } from '../../infra/git/mirror';
import { StudyRunRecords } from '../../infra/study/runRecords';
import { StudySessions } from '../../infra/study/sessionFiles';
import type { Chain } from '../../protocol/chain';
import type { RunMode } from '../../protocol/run';
import type { LoadedStudy } from './loadStudy';

/** Where a participant's tasks are checked out by default: `<study folder>/sessions/<participant>/<task>`. */
export function defaultWorkRoot(study: LoadedStudy): string {
  return join(dirname(study.file), 'sessions');
}

/**
 * The participant's session: read from the data directory, or made from the assignment on first
 * start. A withdrawn or unknown participant is refused, and nothing is written for them.
 */
export function openSession(
  study: LoadedStudy,
  participant: string,
  workRoot = defaultWorkRoot(study),
): ParticipantSession {
  const pack = study.study.pack !== undefined;
  const sessions = StudySessions.of(study.study.name, study.file, pack);
  if (sessions.withdrawn().has(participant))
    throw new UserError(
      `participant '${participant}' withdrew from the study '${study.study.name}'; their data is gone`,
      'state',
    );
  const assigned = study.sessions.get(participant);
  if (!assigned)
    throw new UserError(
      `'${participant}' is not a participant of the study '${study.study.name}' (${study.file}: $.participants)`,
      'usage',
    );
  const existing = sessions.read(participant);
  if (existing) return existing;
  return {
    schema: 1,
    study: study.study.name,
    studyFile: study.file,
    participant,
    ...(pack ? { pack } : {}),
    consentedAt: null,
    tasks: assigned.map((a) => ({
      task: a.task,
      condition: a.condition,
      workTree: join(workRoot, participant, a.task),
      runId: null,
      status: 'pending' as const,
    })),
  };
}

export function saveSession(session: ParticipantSession): void {
  StudySessions.of(session.study, session.studyFile, session.pack === true).write(session);
}

/** The task to work on: the one being solved, else the first not started; undefined when all are done. */
export function currentTaskIndex(session: ParticipantSession): number | undefined {
  const solving = session.tasks.findIndex((t) => t.status === 'solving');
  if (solving >= 0) return solving;
  const next = session.tasks.findIndex((t) => t.status === 'pending');
  return next >= 0 ? next : undefined;
}

/** Everything a run start needs for one assigned task (the front ends start it their own way). */
export interface StudyTaskPlan {
  readonly chain: Chain;
  readonly chainFile: string;
  readonly source: RepoSource;
  readonly workTree: string;
  readonly mode: RunMode;
  readonly authors: StepAuthor[];
  readonly recorded: Record<string, string | null>;
  readonly record: StudyRun;
}

function stepAuthor(author: StudyAuthor, participant: string, model: string, source: string): StepAuthor {
  switch (author) {
    case 'gold':
      return { kind: 'gold' };
    case 'human':
      return { kind: 'human', name: participant };
    case 'recorded':
      return { kind: 'recorded', model, source };
    case 'agent':
      return { kind: 'agent-live', agent: 'attached agent' };
  }
}

export function planTask(study: LoadedStudy, session: ParticipantSession, index: number): StudyTaskPlan {
  const entry = session.tasks[index];
  const task = study.tasks.get(entry.task);
  const condition = study.study.conditions.find((c) => c.name === entry.condition);
  if (!task || !condition)
    throw new UserError(
      `the session of '${session.participant}' names task '${entry.task}' under '${entry.condition}', which ${study.file} no longer has`,
      'state',
    );
  const { chain, predictions } = task;
  const authors = chain.steps.map((s, i) => {
    const p = predictions?.byInstance.get(s.instanceId);
    return stepAuthor(condition.authors[i], session.participant, p?.model ?? 'unknown', predictions?.path ?? '');
  });
  const rules = study.study;
  return {
    chain,
    chainFile: task.chainPath,
    source: task.source,
    workTree: entry.workTree,
    mode: rules.mode,
    authors,
    // Only the steps this condition gives the agent: another step's agent patch would be a
    // solution of a step the person solves (docs/study.md "Blind solving").
    recorded: Object.fromEntries(
      chain.steps
        .filter((s, i) => condition.authors[i] === 'recorded')
        .map((s) => [s.instanceId, predictions?.byInstance.get(s.instanceId)?.patch ?? null]),
    ),
    record: {
      schema: 1,
      study: rules.name,
      studyFile: study.file,
      participant: session.participant,
      task: entry.task,
      condition: entry.condition,
      authors: condition.authors,
      feedback: rules.feedback,
      revealAfterSubmission: rules.revealAfterSubmission,
      idleGapMs: rules.idleGapSeconds * 1000,
      timeLimitMs: rules.timeLimitMinutes === undefined ? null : rules.timeLimitMinutes * 60_000,
      gradeHere: rules.pack === undefined,
    },
  };
}

/** The person-solved step the run is on, or undefined (every step a person solves is submitted). */
export function personStep(state: RunState): number | undefined {
  const step = state.steps.find((s) => s.order === state.currentStep);
  return step?.author.kind === 'human' ? step.order : undefined;
}

/**
 * After the run of task `index` started: mark the run as a study run (what the disclosure policy
 * reads), start the clock of its first person step, and record the run in the session.
 */
export function attachRun(
  session: ParticipantSession,
  index: number,
  plan: StudyTaskPlan,
  stateRoot: string,
  state: RunState,
  now: number,
): ParticipantSession {
  const records = new StudyRunRecords(stateRoot, state.runId);
  records.writeRun(plan.record);
  const step = personStep(state);
  if (step !== undefined && !records.clock(step)) records.writeClock(step, startClock(now));
  const tasks = session.tasks.map((t, i) =>
    i === index
      ? { ...t, runId: state.runId, status: step === undefined ? ('done' as const) : ('solving' as const) }
      : t,
  );
  const next = { ...session, tasks };
  saveSession(next);
  return next;
}

/**
 * Whether an evaluation that started is a test run of the timed step: the person's own run of
 * that step's tests. The grading at Submit (the clock has moved on to the next step by then) is
 * not a test run of the next step.
 */
export function isTestRunOf(
  flight: { readonly runId: string; readonly step: number; readonly origin?: string },
  runId: string,
  step: number,
): boolean {
  return flight.runId === runId && flight.step === step && flight.origin !== 'submit';
}

/**
 * The clock of the person step being solved, kept in memory and saved atomically at most every
 * `flushMs` (and on flush()), so a killed window loses at most that much (docs/study.md).
 */
export class StepTimer {
  private clock: StepClock;
  private dirty = false;
  private savedAt: number;
  /** Another extension host took this step's clock over: this timer no longer saves. */
  private superseded = false;

  constructor(
    private readonly records: StudyRunRecords,
    readonly step: number,
    private readonly idleGapMs: number,
    private readonly now: () => number,
    private readonly flushMs = 2000,
  ) {
    this.clock = records.clock(step) ?? startClock(now());
    this.savedAt = now();
  }

  get current(): StepClock {
    return this.clock;
  }

  activity(activity: Activity): void {
    const next = recordActivity(this.clock, this.now(), activity, this.idleGapMs);
    if (next === this.clock) return;
    this.clock = next;
    this.dirty = true;
    if (this.now() - this.savedAt >= this.flushMs) this.flush();
  }

  flush(): void {
    if (!this.dirty || this.superseded) return;
    // Withdrawn while the window was open: the records are gone and must not come back.
    if (!this.records.exists()) {
      this.superseded = true;
      return;
    }
    // A window reload starts a new extension host while the old one may still be saving (its
    // blur and deactivate flush). The new host counts a reload when it takes the clock over, so
    // a saved clock with more reloads than ours is a newer host's: writing ours would undo it.
    const saved = this.records.clock(this.step);
    if (saved && saved.reloads > this.clock.reloads) {
      this.superseded = true;
      return;
    }
    this.records.writeClock(this.step, this.clock);
    this.dirty = false;
    this.savedAt = this.now();
  }

  /** Stops the clock at submission and saves it. */
  stop(): StepClock {
    this.clock = stopClock(this.clock, this.now(), this.idleGapMs);
    this.dirty = true;
    this.flush();
    return this.clock;
  }
}

/**
 * After a person's step was submitted (the engine applied any gold/recorded steps after it): the
 * clock of the next person step starts, or the task is done.
 */
export function afterSubmit(
  session: ParticipantSession,
  index: number,
  stateRoot: string,
  state: RunState,
  now: number,
): ParticipantSession {
  const records = new StudyRunRecords(stateRoot, state.runId);
  const step = personStep(state);
  if (step !== undefined && !records.clock(step)) records.writeClock(step, startClock(now));
  const tasks = session.tasks.map((t, i) =>
    i === index && step === undefined ? { ...t, status: 'done' as const } : t,
  );
  const next = { ...session, tasks };
  saveSession(next);
  return next;
}
