import * as z from 'zod';
import { ConditionSchema, FilterOutcomeSchema } from './codethread';
import { GradingProfileSchema, TestBucketSchema } from './grading';
import { RunModeSchema } from './run';

/**
 * How one step's evaluation ended.
 * resolved/unresolved: the tests ran and were graded; error: no usable verdict (patch did not
 * apply, timeout, environment trouble: see `error_kind`); empty_patch: nothing to evaluate.
 */
export const StepEvalStatusSchema = z.enum(['resolved', 'unresolved', 'error', 'empty_patch']);
export type StepEvalStatus = z.infer<typeof StepEvalStatusSchema>;

/** Whose fault an error is: the environment's (engine, image, OOM) or the code's (a suite it left uncollectable is `log`). */
export const EvalErrorKindSchema = z.enum(['environment', 'patch', 'timeout', 'cancelled', 'log']);
export type EvalErrorKind = z.infer<typeof EvalErrorKindSchema>;

/** One step of `chainlens eval --report` (the shape later checks read; extra keys are additive). */
export const StepEvaluationSchema = z.object({
  order: z.number().int(),
  instance_id: z.string(),
  status: StepEvalStatusSchema,
  resolved: z.boolean(),
  patch_applied: z.boolean(),
  error: z.string().nullable(),
  error_kind: EvalErrorKindSchema.nullable(),
  tests_status: z.object({
    FAIL_TO_PASS: TestBucketSchema,
    PASS_TO_PASS: TestBucketSchema,
    FAIL_TO_FAIL: TestBucketSchema.optional(),
    PASS_TO_FAIL: TestBucketSchema.optional(),
  }),
  /** Test id -> status as parsed from the log (what the Testing view shows per test). */
  status_map: z.record(z.string(), z.string()),
  log_path: z.string(),
  /** The SWE-bench-shaped report.json beside the log. */
  report_path: z.string(),
  duration_s: z.number(),
  /** What was evaluated: the step's submitted commit, or the uncommitted work tree. */
  source: z.enum(['submitted', 'worktree']),
  /** Commit evaluated (for the work tree: the commit the work sits on). */
  commit: z.string(),
  image: z.string(),
  evaluated_at: z.string(),
  /** Set for a step graded by CodeThread's PR1 filter (docs/reference/codethread.md); `resolved` = the filter passed. */
  grading: z.literal('pr1-filter').optional(),
  filter: FilterOutcomeSchema.optional(),
});
export type StepEvaluation = z.infer<typeof StepEvaluationSchema>;

/** `chainlens eval --report <out.json>`. */
export const ChainEvaluationSchema = z.object({
  chain_id: z.string(),
  mode: RunModeSchema,
  profile: GradingProfileSchema,
  run_id: z.string(),
  steps: z.array(StepEvaluationSchema),
  resolved_steps: z.number().int(),
  /** Every step evaluated and resolved; false for a subset of the chain (see chain_orders). */
  full_chain_resolved: z.boolean(),
  /** A CodeThread task's condition (HH/HA/AA/AH), from the run's authors. */
  condition: ConditionSchema.optional(),
  /**
   * Every step order of the chain, evaluated or not: tells a subset (`eval --steps 2`) from the
   * whole chain, and gives each step its position. Absent in reports of earlier versions.
   */
  chain_orders: z.array(z.number().int()).optional(),
});
export type ChainEvaluation = z.infer<typeof ChainEvaluationSchema>;
