import * as z from 'zod';

export const RunModeSchema = z.enum(['seq', 'oracle']);
export type RunMode = z.infer<typeof RunModeSchema>;

/**
 * Who writes a step's patch. CodeThread's HH/HA/AA/AH conditions are author assignments:
 * AH = step 1 `recorded` (an agent's patch), step 2 `human`.
 */
export const StepAuthorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('gold') }),
  z.object({ kind: z.literal('human'), name: z.string().optional() }),
  z.object({ kind: z.literal('recorded'), model: z.string(), source: z.string() }),
  z.object({ kind: z.literal('agent-live'), agent: z.string() }),
]);
export type StepAuthor = z.infer<typeof StepAuthorSchema>;

/**
 * pending: not reached yet; current: being solved; submitted: committed;
 * patch_failed: its (gold/recorded) patch did not apply, nothing was changed;
 * empty_patch: the recorded author produced no patch.
 */
export const StepStateStatusSchema = z.enum(['pending', 'current', 'submitted', 'patch_failed', 'empty_patch']);

export const PatchStatsSchema = z.object({
  files: z.number().int(),
  insertions: z.number().int(),
  deletions: z.number().int(),
});
export type PatchStats = z.infer<typeof PatchStatsSchema>;

export const StepStateSchema = z.object({
  order: z.number().int().positive(),
  instanceId: z.string(),
  author: StepAuthorSchema,
  status: StepStateStatusSchema,
  /** Commit the step started from (also at refs/chainlens/<run>/step-<k>/start). */
  start: z.string().nullable(),
  /** Commit the step ended at (also at refs/chainlens/<run>/step-<k>/end). */
  end: z.string().nullable(),
  startedAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  /** Wall time from start to submit; for human steps, the "time spent" people compare. */
  elapsedMs: z.number().nullable(),
  patch: PatchStatsSchema.nullable(),
  /** Why a step did not go as planned (e.g. the patch that did not apply), for a person. */
  note: z.string().nullable(),
});
export type StepState = z.infer<typeof StepStateSchema>;

export const RunStateSchema = z.object({
  schema: z.literal(1),
  runId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  chainId: z.string(),
  /** The chain file the run was opened from (the normalised chain is snapshotted beside the state). */
  chainFile: z.string(),
  repoSource: z.string(),
  mode: RunModeSchema,
  /** Branch the work happens on, `chainlens/<runId>`. */
  branch: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Order of the step being solved; null when every step is done. */
  currentStep: z.number().int().positive().nullable(),
  steps: z.array(StepStateSchema),
});
export type RunState = z.infer<typeof RunStateSchema>;

/** A run's recorded (agent) patches by instance id; null: the agent produced none. */
export const RecordedPatchesSchema = z.record(z.string(), z.string().nullable());
