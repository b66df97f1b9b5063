import * as z from 'zod';

/**
 * One row of a SWE-CI split's metadata CSV (`metadata/<split>.csv`). These four columns are what
 * the published harness reads; other columns are kept as they are.
 */
export const SweciMetadataRowSchema = z.object({
  task_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a task id (letters, digits, . _ -)'),
  current_sha: z.string().regex(/^[0-9a-f]{7,40}$/, 'a commit id (hex)'),
  target_sha: z.string().regex(/^[0-9a-f]{7,40}$/, 'a commit id (hex)'),
  test_gap: z.string().regex(/^\d+$/, 'a whole number of tests'),
});
export type SweciMetadataRow = z.infer<typeof SweciMetadataRowSchema> & Record<string, string>;

/** One test run of a state: which tests passed, and whether the run counts (pytest exit 0 or 1). */
export const SweciTestRunSchema = z.object({
  /** Commit of the state under test. */
  commit: z.string(),
  passed: z.array(z.string()),
  /** Tests that ran and did not pass (failed, error), from the log. */
  failed: z.array(z.string()),
  /** pytest's exit code; null when the run did not finish (timeout, environment). */
  exitCode: z.number().int().nullable(),
  /** The run counts: pytest ended with 0 or 1 (SWE-CI drops other runs' results). */
  usable: z.boolean(),
  /** Why the run does not count, for a person. */
  problem: z.string().nullable(),
  logPath: z.string(),
  evaluatedAt: z.string(),
  durationS: z.number(),
});
export type SweciTestRun = z.infer<typeof SweciTestRunSchema>;

/**
 * What a SWE-CI loop does where ChainLens has to choose (docs/sweci.md), fixed at `sweci init`:
 * - failedRun: an iteration whose test run does not count has its code `discard`ed (the next
 *   iteration starts from the last code whose tests ran, as the harness's run.py) or `keep`s it;
 * - testChanges: a Programmer's change under the task's test paths is `reset` (and recorded)
 *   before grading, or the submit is `refuse`d naming the paths;
 * - requirement: the Architect's requirement must have Appendix C's shape (`appendix-c`) or is
 *   `free` text.
 */
export const SweciFailedRunSchema = z.enum(['discard', 'keep']);
export type SweciFailedRun = z.infer<typeof SweciFailedRunSchema>;
export const SweciTestChangesSchema = z.enum(['reset', 'refuse']);
export type SweciTestChanges = z.infer<typeof SweciTestChangesSchema>;
export const SweciRequirementShapeSchema = z.enum(['appendix-c', 'free']);
export type SweciRequirementShape = z.infer<typeof SweciRequirementShapeSchema>;
export const SweciPoliciesSchema = z.object({
  failedRun: SweciFailedRunSchema,
  testChanges: SweciTestChangesSchema,
  requirement: SweciRequirementShapeSchema,
});
export type SweciPolicies = z.infer<typeof SweciPoliciesSchema>;

/** A task as `sweci init` set it up: the two test runs and the gap between them. */
export const SweciTaskSchema = z.object({
  taskId: z.string(),
  split: z.string(),
  datasetDir: z.string(),
  currentSha: z.string(),
  targetSha: z.string(),
  /** The metadata's test_gap; the measured gap may differ (a warning, as in SWE-CI). */
  expectedGap: z.number().int().nonnegative(),
  image: z.string(),
  testCmd: z.string(),
  /** The run's base commit: the current code with the target's tests. */
  baseCommit: z.string(),
  /** The base state's run (p0) and the oracle's run (p*). */
  initial: SweciTestRunSchema,
  oracle: SweciTestRunSchema,
  limit: z.number().int().positive(),
  timeoutS: z.number().positive(),
  /** Absent in records written before the policies existed: read as the defaults. */
  policies: SweciPoliciesSchema.optional(),
});
export type SweciTask = z.infer<typeof SweciTaskSchema>;

export const SweciIterationSchema = z.object({
  /** 1-based; the run's step of the same order. */
  iteration: z.number().int().positive(),
  run: SweciTestRunSchema,
  /** Tests passing after the previous iteration (the base for iteration 1) that do not pass now. */
  regressions: z.array(z.string()),
  /** Oracle-passing tests still not passing after this iteration. */
  gap: z.array(z.string()),
  /** Who wrote the requirement and the code (for a person reading the record). */
  architect: z.string().nullable(),
  programmer: z.string().nullable(),
  /**
   * The test run did not count and the code was thrown away (policy failedRun: discard): the next
   * iteration starts from `restoredFrom` (the last code whose tests ran, or the base), committed
   * on the run's branch as `restoredAs`.
   */
  discarded: z.object({ restoredFrom: z.string(), restoredAs: z.string() }).optional(),
  /**
   * Paths under the task's test paths the Programmer changed, reset to the task's before grading
   * (policy testChanges: reset); the change itself is kept in `diffPath`.
   */
  testChangesReset: z.object({ paths: z.array(z.string()), diffPath: z.string() }).optional(),
});
export type SweciIteration = z.infer<typeof SweciIterationSchema>;

export const SweciStopSchema = z.enum(['gap-closed', 'limit']);
export type SweciStop = z.infer<typeof SweciStopSchema>;

/** `<state folder>/runs/<run>.sweci.json`: the task and every graded iteration (docs/sweci.md). */
export const SweciRecordSchema = z.object({
  schema: z.literal(1),
  runId: z.string(),
  task: SweciTaskSchema,
  iterations: z.array(SweciIterationSchema),
  stopped: SweciStopSchema.nullable(),
});
export type SweciRecord = z.infer<typeof SweciRecordSchema>;

/** One failing gap test as the Architect sees it (SWE-CI's non-passed/summary.jsonl line, plus the output). */
export const SweciGapEntrySchema = z.object({
  test: z.string(),
  description: z.string(),
  /** The test's failure section of the log (traceback), when the run printed one. */
  output: z.string().nullable(),
});
export type SweciGapEntry = z.infer<typeof SweciGapEntrySchema>;

/** The metrics of one task (src/core/sweci/score.ts). */
export interface SweciTaskScore {
  taskId: string;
  runId: string;
  p0: number;
  pStar: number;
  limit: number;
  /** Passing count after each graded iteration, as recorded (not clamped, not padded). */
  counts: number[];
  /** Normalized Change of each of the `limit` scored iterations (clamped, padded). */
  normalizedChanges: number[];
  /** EvoScore at each γ of the sensitivity table, and at the requested γ. */
  evoScores: { gamma: number; evoScore: number }[];
  evoScore: number;
  gamma: number;
  zeroRegression: boolean;
  /** SWE-CI's summarize.py check: the passing count never drops from one state to the next. */
  countNeverDrops: boolean;
  solved: boolean;
  regressions: { iteration: number; tests: string[] }[];
  stopped: SweciStop | null;
}

/** The tools an attached agent gets in a SWE-CI loop (src/core/sweci/tools.ts), and their arguments. */
export const SweciToolNameSchema = z.enum(['get_gap', 'write_requirement', 'get_requirement', 'submit_iteration']);
export type SweciToolName = z.infer<typeof SweciToolNameSchema>;
export const SweciRoleSchema = z.enum(['architect', 'programmer', 'both']);
export type SweciRole = z.infer<typeof SweciRoleSchema>;

export const GetGapArgsSchema = z.object({ output: z.boolean().optional() }).strict();
export const WriteRequirementArgsSchema = z.object({ requirement: z.string().min(1).max(100_000) }).strict();
export const GetRequirementArgsSchema = z.object({}).strict();
export const SubmitIterationArgsSchema = z
  .object({ iteration: z.number().int().positive().optional(), summary: z.string().max(4000).optional() })
  .strict();
