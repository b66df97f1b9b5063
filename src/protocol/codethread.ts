import * as z from 'zod';
import { SymbolKindSchema } from './symbolKind';

/**
 * CodeThread two-step tasks (docs/reference/codethread.md): PR0 is the base commit with the
 * bodies of the gold patch's target functions removed; step 1 (the Implementation Task) restores
 * them and is graded by the PR1 filter; step 2 is the original instance.
 */

/** How a step is graded: as the benchmark does (resolved), or by CodeThread's PR1 filter. */
export const StepGradingSchema = z.enum(['resolve', 'pr1-filter']);
export type StepGrading = z.infer<typeof StepGradingSchema>;

/** One function or method whose body PR0 removed. */
export const TargetFunctionSchema = z.object({
  file: z.string().min(1),
  /** Qualified as the analysis names symbols: `Class.method`, `outer.inner`. */
  function: z.string().min(1),
  kind: SymbolKindSchema,
  /** 1-based line of the definition (decorators included) at the original base commit. */
  line: z.number().int().positive(),
});
export type TargetFunction = z.infer<typeof TargetFunctionSchema>;

export const TaskTypeSchema = z.enum(['bug-fix', 'feature', 'refactor']);
export type TaskType = z.infer<typeof TaskTypeSchema>;

/** What a CodeThread chain records about where it came from (the chain file's `codethread` object). */
export const CodeThreadMetaSchema = z.object({
  /** The benchmark instance the two steps were built from (step 2's instance id). */
  instance_id: z.string().min(1),
  /** The instance's own base commit; the chain's base_commit is PR0, a root commit over its tree. */
  original_base_commit: z.string().regex(/^[0-9a-f]{40}$/i, 'expected a full commit hash'),
  benchmark: z.string().min(1),
  task_type: TaskTypeSchema.optional(),
  targets: z.array(TargetFunctionSchema).min(1),
  /** Where `codethread build` keeps PR0 in the repository it was given. */
  pr0_ref: z.string().min(1),
});
export type CodeThreadMeta = z.infer<typeof CodeThreadMetaSchema>;

/** The four authorship conditions: who wrote PR1, then who wrote PR2 (H = human, A = agent). */
export const ConditionSchema = z.enum(['HH', 'HA', 'AA', 'AH']);
export type Condition = z.infer<typeof ConditionSchema>;

/** Why `codethread build` made no task of an instance. */
export const SkipReasonSchema = z.enum([
  'no-code-files',
  'no-function-body',
  'file-unreadable',
  'base-does-not-parse',
  'skeleton-does-not-parse',
  'base-commit-missing',
]);
export type SkipReason = z.infer<typeof SkipReasonSchema>;

export const SkippedInstanceSchema = z.object({
  instance_id: z.string(),
  reason: SkipReasonSchema,
  detail: z.string(),
});
export type SkippedInstance = z.infer<typeof SkippedInstanceSchema>;

/** The PR1 filter's outcome for one evaluation: passed when every P2P passes and every F2P still fails. */
export const FilterOutcomeSchema = z.object({
  passed: z.boolean(),
  /** P2P tests that did not pass (functionality not restored). */
  p2p_failing: z.array(z.string()),
  /** F2P tests that passed (the follow-on issue already solved, or partly). */
  f2p_passing: z.array(z.string()),
});
export type FilterOutcome = z.infer<typeof FilterOutcomeSchema>;
