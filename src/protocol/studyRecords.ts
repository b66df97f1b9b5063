import * as z from 'zod';
import { FeedbackLevelSchema, StudyAuthorSchema } from './study';

/**
 * What a study session records (docs/study.md "What is recorded"). Participant ids are the study
 * file's pseudonymous ids; nothing else about a person is stored.
 */

/** Beside a run that is part of a study (`runs/<run>/study/run.json` in the run's state folder). */
export const StudyRunSchema = z.object({
  schema: z.literal(1),
  study: z.string(),
  /** Absolute path of the study file, so the session and the export find each other. */
  studyFile: z.string(),
  participant: z.string(),
  task: z.string(),
  condition: z.string(),
  authors: z.array(StudyAuthorSchema),
  feedback: FeedbackLevelSchema,
  revealAfterSubmission: z.boolean(),
  idleGapMs: z.number().positive(),
  timeLimitMs: z.number().positive().nullable(),
  /** False in a pack: the hidden tests are with the researcher, submissions are graded there. */
  gradeHere: z.boolean().default(true),
});
export type StudyRun = z.infer<typeof StudyRunSchema>;

const PauseSchema = z.object({
  from: z.number(),
  to: z.number(),
  reason: z.enum(['idle', 'unfocused', 'paused']),
});

const LoggedEventSchema = z.object({
  at: z.number(),
  kind: z.enum(['open', 'test', 'reload', 'pause', 'resume', 'focus', 'blur', 'submit']),
  file: z.string().optional(),
});

export const StepClockSchema = z.object({
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  activeMs: z.number().nonnegative(),
  lastActivityAt: z.number(),
  focused: z.boolean(),
  paused: z.boolean(),
  pauses: z.array(PauseSchema).readonly(),
  editsPerFile: z.record(z.string(), z.number().int().nonnegative()).readonly(),
  testRuns: z.number().int().nonnegative(),
  reloads: z.number().int().nonnegative(),
  log: z.array(LoggedEventSchema).readonly(),
});

/** Time on task of every person-authored step of the run, by step order (`runs/<run>/study/time.json`). */
export const StudyTimeSchema = z.object({
  schema: z.literal(1),
  steps: z.record(z.string().regex(/^\d+$/), StepClockSchema),
});
export type StudyTime = z.infer<typeof StudyTimeSchema>;

/** One participant's progress through their assigned tasks (in the data directory, per study). */
export const ParticipantSessionSchema = z.object({
  schema: z.literal(1),
  study: z.string(),
  studyFile: z.string(),
  participant: z.string(),
  /**
   * A session of a pack's study file (a participant's own machine, or the researcher trying the
   * pack): kept apart from the researcher's sessions of the same study (infra/study/sessionFiles.ts).
   */
  pack: z.boolean().optional(),
  /** When the participant agreed to the consent text (null: the study has none). */
  consentedAt: z.string().nullable(),
  tasks: z.array(
    z.object({
      task: z.string(),
      condition: z.string(),
      workTree: z.string(),
      runId: z.string().nullable(),
      status: z.enum(['pending', 'solving', 'done']),
    }),
  ),
});
export type ParticipantSession = z.infer<typeof ParticipantSessionSchema>;

/** One exported row: a (participant, task, step) of the study (`study export`, JSONL and CSV). */
export const StudyRowSchema = z.object({
  study: z.string(),
  participant: z.string(),
  task: z.string(),
  chain: z.string(),
  condition: z.string(),
  step: z.number().int().positive(),
  instanceId: z.string(),
  author: StudyAuthorSchema,
  /** Submitted (or applied) and graded. */
  status: z.string(),
  applied: z.boolean(),
  resolved: z.boolean().nullable(),
  f2pPassed: z.number().int().nullable(),
  f2pTotal: z.number().int().nullable(),
  p2pPassed: z.number().int().nullable(),
  p2pTotal: z.number().int().nullable(),
  wallSeconds: z.number().nullable(),
  activeSeconds: z.number().nullable(),
  pauses: z.number().int().nullable(),
  testRuns: z.number().int().nullable(),
  edits: z.number().int().nullable(),
  reloads: z.number().int().nullable(),
  /** Lines of the step's patch the gold patch does not touch / gold lines the patch leaves out. */
  overshootLines: z.number().int().nullable(),
  undershootLines: z.number().int().nullable(),
  patch: z.string().nullable(),
});
export type StudyRow = z.infer<typeof StudyRowSchema>;

/** `runs/<run>/study/ungraded.json`: person steps submitted with `study submit --no-grade`. */
export const StudyUngradedSchema = z.object({ steps: z.array(z.number().int()) });
