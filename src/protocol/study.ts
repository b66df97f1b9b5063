import * as z from 'zod';
import { RunModeSchema } from './run';

/**
 * A human study (README "Running a study"; docs/study.md): which chains are solved, under which
 * conditions (who authors each step), by whom, and what a solver may see. Paths in the file are
 * relative to the study file.
 */

/** Who authors a step under a condition: the gold patch, a recorded agent patch, an attached agent, or a person. */
export const StudyAuthorSchema = z.enum(['gold', 'recorded', 'agent', 'human']);
export type StudyAuthor = z.infer<typeof StudyAuthorSchema>;

/** Pseudonymous ids only: letters, digits, `-`, `_`, `.` (they name files and appear in exports). */
const IdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'expected an id of letters, digits, ".", "_" or "-" (at most 64)');

export const StudyTaskSchema = z.strictObject({
  id: IdSchema,
  /** Any chain file `chainlens validate` accepts (a CodeThread task is a two-step chain). */
  chain: z.string().min(1),
  /** A ChainSWE dataset's chain (`continuous_id`). */
  chainId: z.string().min(1).optional(),
  /** SWE-bench instances of the chain, in order. */
  instances: z.array(z.string().min(1)).min(1).optional(),
  /** Where the repository comes from: a local repository (relative to the study file) or a git URL. */
  repo: z.string().min(1),
  /** SWE-bench predictions (or a trajectory) holding the agent patches of `recorded` steps. */
  predictions: z.string().min(1).optional(),
});
export type StudyTask = z.infer<typeof StudyTaskSchema>;

export const StudyConditionSchema = z.strictObject({
  /** e.g. HH, HA, AA, AH: the first letter authors step 1. */
  name: IdSchema,
  /** One author per step, in step order; its length must match every task's chain. */
  authors: z.array(StudyAuthorSchema).min(1),
  description: z.string().optional(),
});
export type StudyCondition = z.infer<typeof StudyConditionSchema>;

export const AssignedTaskSchema = z.strictObject({ task: IdSchema, condition: IdSchema });
export type AssignedTask = z.infer<typeof AssignedTaskSchema>;

export const StudyAssignmentSchema = z.discriminatedUnion('kind', [
  /** Each participant's tasks in the order they are solved. */
  z.strictObject({ kind: z.literal('explicit'), sessions: z.record(IdSchema, z.array(AssignedTaskSchema).min(1)) }),
  /**
   * Counterbalanced (Latin square over the conditions a person solves in) and shuffled with `seed`,
   * which is recorded so the assignment can be reproduced.
   */
  z.strictObject({ kind: z.literal('generated'), seed: z.number().int().nonnegative() }),
]);

export const FeedbackLevelSchema = z.enum(['none', 'summary', 'full']);
export type FeedbackLevel = z.infer<typeof FeedbackLevelSchema>;

export const StudyFileSchema = z.strictObject({
  chainlensStudy: z.literal(1),
  name: IdSchema,
  tasks: z.array(StudyTaskSchema).min(1),
  conditions: z.array(StudyConditionSchema).min(1),
  participants: z.array(IdSchema).min(1),
  assignment: StudyAssignmentSchema,
  /** Seq (default): each step builds on the previous one's result, as the conditions assume. */
  mode: RunModeSchema.default('seq'),
  /** What a person sees of the step's tests while solving (default none, as agents in the benchmark). */
  feedback: FeedbackLevelSchema.default('none'),
  /** Per step; the session warns when it is reached (the clock keeps running). */
  timeLimitMinutes: z.number().positive('must be more than 0').optional(),
  /** After a step is submitted and graded, show its annotations for review and labelling. */
  revealAfterSubmission: z.boolean().default(false),
  /** Seconds without activity after which the active clock stops (default 120). */
  idleGapSeconds: z.number().positive('must be more than 0').default(120),
  /** Shown once per participant before the first task; starting means consenting. */
  consent: z.string().min(1).optional(),
  /**
   * A participant's pack (`study pack`): the hidden tests stay with the researcher, so submissions
   * are not graded here, and after each one the participant's rows are written to
   * `<resultsDir>/<participant>.results.json`, the file they send back.
   */
  pack: z.strictObject({ resultsDir: z.string().min(1) }).optional(),
});
export type StudyFile = z.infer<typeof StudyFileSchema>;
