import * as z from 'zod';
import { CodeThreadMetaSchema, StepGradingSchema } from './codethread';
import { EvalTypeSchema, LogParserNameSchema } from './grading';

/**
 * The one normalised chain every input format becomes (ChainSWE, SWE-bench instances,
 * CodeThread, SWE-CI). Field names are ChainLens's own (camelCase); format adapters in
 * src/core/formats map the source files' snake_case onto them.
 */
export const ChainStepSchema = z.object({
  /** 1-based position in the chain. */
  order: z.number().int().positive(),
  instanceId: z.string().min(1),
  problemStatement: z.string(),
  /** Gold fix (unified diff). */
  goldPatch: z.string(),
  /** Hidden tests (unified diff); applied only inside the evaluation container. */
  testPatch: z.string(),
  failToPass: z.array(z.string()),
  passToPass: z.array(z.string()),
  /** Shell test command; null means "derive from the repository" (SWE-bench's specs). */
  testCmd: z.string().nullable(),
  /** The upstream commit the fix came from, when known. */
  commitHash: z.string().optional(),
  createdAt: z.string().optional(),
  hints: z.string().optional(),
  version: z.string().optional(),
  /** The harness parser that grades this step (a dataset's `log_parser`); absent: the repository's. */
  logParser: LogParserNameSchema.optional(),
  /** pass_and_fail or fail_only (a dataset's `eval_type`); absent: the repository's. */
  evalType: EvalTypeSchema.optional(),
  /** Shell run after the test patch and before the tests (the harness's `build` spec; may be several lines). */
  buildCmd: z.string().optional(),
  /** The tests SWE-bench Pro's run script is given (its `selected_test_files_to_run`). */
  testFiles: z.array(z.string()).optional(),
  /** How the step is graded; absent: resolved as the benchmark does. `pr1-filter`: CodeThread's step 1. */
  grading: StepGradingSchema.optional(),
});
export type ChainStep = z.infer<typeof ChainStepSchema>;

export const ChainFormatSchema = z.enum(['chainswe', 'swebench', 'swebench-pro', 'codethread', 'swe-ci']);

export const ChainSchema = z.object({
  id: z.string().min(1),
  /** owner/name */
  repo: z.string().min(1),
  baseCommit: z.string().min(7),
  /** One image for the whole chain; null when the format names none (resolved at eval time). */
  dockerImage: z.string().nullable(),
  format: ChainFormatSchema,
  /** The dataset the chain was mined from (a ChainSWE chain's `source`: SWE-rebench, SWE-Gym, ...). */
  source: z.string().optional(),
  steps: z.array(ChainStepSchema).min(1),
  /** A CodeThread two-step task: where it came from and its target functions. */
  codethread: CodeThreadMetaSchema.optional(),
});
export type Chain = z.infer<typeof ChainSchema>;

/** A recorded agent patch for one instance (SWE-bench predictions). */
export const PredictionSchema = z.object({
  instanceId: z.string().min(1),
  model: z.string(),
  /** null or '' = the agent produced no patch ("empty patch": not run). */
  patch: z.string().nullable(),
});
export type Prediction = z.infer<typeof PredictionSchema>;
