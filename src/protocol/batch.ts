import * as z from 'zod';
import { BATCH_FORMAT } from './batchFormat';
import { EvalErrorKindSchema, StepEvalStatusSchema } from './evaluation';
import { TestBucketSchema } from './grading';
import { AgentModeSchema, AgentPlacementKindSchema, AgentStepOutcomeSchema } from './agentLoop';

/**
 * A batch run directory (docs/reference/batch.md): `manifest.json` says what the batch is, and
 * `records/` holds one record per (chain, source, mode, step), each written atomically when the
 * step's evaluation is done. Readers check `format` and `version` before anything else.
 */
export { BATCH_FORMAT };
export const BATCH_VERSION = 1;

/**
 * A batch's modes: Oracle and Seq for every source; Seq+Mem for agent sources only (the memory is
 * the agent's, docs/reference/agents.md).
 */
export const BatchModeSchema = AgentModeSchema;
export type BatchMode = z.infer<typeof BatchModeSchema>;

/**
 * A prediction source: a predictions file, a folder of trajectories, the gold patches, or an agent
 * (`--agent NAME=COMMAND`) that the batch runs on each step's start state.
 */
export const BatchSourceSchema = z.object({
  /** Short name used in records, paths and reports (the model, usually). */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/),
  kind: z.enum(['gold', 'predictions', 'trajectories', 'agent']),
  /** Absolute path of the file or folder; absent for gold and agents. */
  path: z.string().optional(),
  /** An agent's command (sh -c). */
  command: z.string().optional(),
});
export type BatchSource = z.infer<typeof BatchSourceSchema>;

export const BatchChainSchema = z.object({
  id: z.string(),
  /** Which dataset file (and line, for JSONL and Parquet rows) the chain came from. */
  origin: z.string(),
  repo: z.string(),
  /** The dataset the chain was mined from (its `source` field); absent when it names none. */
  source: z.string().optional(),
  image: z.string(),
  steps: z.array(z.object({ order: z.number().int(), instance_id: z.string() })),
});

export const BatchManifestSchema = z.object({
  format: z.literal(BATCH_FORMAT),
  version: z.number().int(),
  created_at: z.string(),
  /** The dataset files, absolute. */
  dataset: z.array(z.string()),
  /** A local repository (or URL) holding every chain's base commit; per repo name. */
  repos: z.record(z.string(), z.string()),
  sources: z.array(BatchSourceSchema),
  modes: z.array(BatchModeSchema),
  chains: z.array(BatchChainSchema),
  options: z.object({
    profile: z.enum(['swebench-v5', 'swebench-v4']),
    timeout_s: z.number().positive().nullable(),
    image: z.string().nullable(),
    repo_path_in_image: z.string().nullable(),
    /** Agent sources only: where their commands run, in which image, for how long a step. */
    agent_in: AgentPlacementKindSchema.optional(),
    agent_image: z.string().nullable().optional(),
    agent_timeout_s: z.number().positive().optional(),
    /**
     * `--repeats N`: each graded step is evaluated N times on the same commit (absent: once). The
     * first run is the record's verdict, as the harness's single run; the others tell flaky tests.
     */
    repeats: z.number().int().positive().optional(),
  }),
});
export type BatchManifest = z.infer<typeof BatchManifestSchema>;

/** A symbol (or whole file) one patch touches and the gold patch does not, or the reverse. */
export const ScopeMarkSchema = z.object({ file: z.string(), symbol: z.string().nullable() });

/** What the patch analysis found for a step's patch against its gold (src/core/analysis). */
export const BatchStepAnalysisSchema = z.object({
  /** Files the step's patch touches, and files its gold patch touches. */
  step_files: z.array(z.string()),
  gold_files: z.array(z.string()),
  /** "file::symbol" pairs the gold patch touches (module-level code included). */
  gold_symbols: z.array(z.string()),
  overshoot: z.array(ScopeMarkSchema),
  undershoot: z.array(ScopeMarkSchema),
});
export type BatchStepAnalysis = z.infer<typeof BatchStepAnalysisSchema>;

/**
 * A step evaluated more than once (`--repeats N`, docs/reference/metrics.md "Flaky tests"): how
 * many runs gave a verdict, how many of them resolved, and the tests whose result changed between
 * those identical runs.
 */
export const BatchRepeatsSchema = z.object({
  runs: z.number().int().positive(),
  resolved: z.number().int().nonnegative(),
  flaky_tests: z.array(z.string()),
});
export type BatchRepeats = z.infer<typeof BatchRepeatsSchema>;

export const BatchRecordSchema = z.object({
  version: z.number().int(),
  chain_id: z.string(),
  source: z.string(),
  mode: BatchModeSchema,
  order: z.number().int(),
  /** 1-based place of the step in the chain (orders need not start at 1). */
  position: z.number().int().positive(),
  instance_id: z.string(),
  status: StepEvalStatusSchema,
  resolved: z.boolean(),
  error: z.string().nullable(),
  error_kind: EvalErrorKindSchema.nullable(),
  /** The environment, not the code, kept this step from a verdict: `--retry-failed` runs it again. */
  infra_failure: z.boolean(),
  tests_status: z.object({ FAIL_TO_PASS: TestBucketSchema, PASS_TO_PASS: TestBucketSchema }),
  duration_s: z.number(),
  /** The log, relative to the run directory. */
  log: z.string(),
  analysis: BatchStepAnalysisSchema.nullable(),
  /** What the trajectory says the step cost (USD), when it says. */
  cost: z.number().nullable(),
  model: z.string().nullable(),
  /**
   * The largest input context (tokens) of one model call in the step's trajectory, when it
   * records per-call token counts (ChainSWE Table 8); absent or null otherwise.
   */
  peak_context_tokens: z.number().nullable().optional(),
  /** Agent sources: what the agent's command did (exit code, wall time, cost and tokens, trajectory). */
  agent: AgentStepOutcomeSchema.optional(),
  /** Present when the batch evaluates each step more than once and this step's tests ran. */
  repeats: BatchRepeatsSchema.optional(),
  finished_at: z.string(),
});
export type BatchRecord = z.infer<typeof BatchRecordSchema>;

/** `chainlens batch --json`: one event per line. */
export type BatchEvent =
  | { event: 'start'; total: number; done: number; workers: number; run_dir: string }
  | {
      event: 'step';
      chain_id: string;
      source: string;
      mode: string;
      order: number;
      status: string;
      done: number;
      total: number;
    }
  | { event: 'end'; done: number; total: number; infra_failures: number; cancelled: boolean };

/** What one trial of the chain-error evidence ran to: gold k graded on a prepared start state. */
export const EvidenceTrialSchema = z.object({
  /** What replaced the recorded patches before step k ("none": the Seq start state as recorded). */
  change: z.string(),
  outcome: z.enum(['resolved', 'unresolved', 'error']),
});

/** An earlier step's hunk the culprit search found: removing it (overshoot) or adding it (undershoot) lets gold k pass. */
export const CulpritHunkSchema = z.object({
  kind: z.enum(['overshoot', 'undershoot']),
  /** `path#n` in the step's recorded patch (overshoot) or its gold patch (undershoot). */
  hunk: z.string(),
  file: z.string(),
  /** The hunk's `@@` line. */
  header: z.string(),
});

/**
 * `evidence/<chain>/<source>/step-<order>.json` (docs/reference/metrics.md, "Chain-error
 * evidence"): for a chain error at Seq step k, gold patch k graded on the Seq start state of step
 * k. `poisoned`: gold fails there, the step could not have been solved; `solvable`: gold passes,
 * the solver failed on a state it could solve; `inconclusive`: the grading itself gave no verdict.
 */
export const ChainErrorEvidenceSchema = z.object({
  version: z.literal(1),
  chain_id: z.string(),
  source: z.string(),
  order: z.number().int(),
  position: z.number().int().positive(),
  verdict: z.enum(['poisoned', 'solvable', 'inconclusive']),
  /** Earlier steps whose replacement by gold alone lets gold k pass, each with its hunks. */
  culprits: z.array(
    z.object({ position: z.number().int().positive(), order: z.number().int(), hunks: z.array(CulpritHunkSchema) }),
  ),
  trials: z.array(EvidenceTrialSchema),
  finished_at: z.string(),
});
export type ChainErrorEvidence = z.infer<typeof ChainErrorEvidenceSchema>;
