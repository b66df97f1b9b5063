import * as z from 'zod';

/**
 * One normalised agent trajectory: what SWE-agent (.traj v0/v1, retry files), mini-swe-agent
 * (.traj.json 1.1 and the legacy bare list, preds.json) and OpenHands (eval output.jsonl with V0
 * events, SDK V1 events) become (docs/reference/trajectories.md). The trajectory viewer and `chainlens trajectory`
 * read only this shape; adapters in src/core/trajectories produce it.
 */

export const TrajectoryFormatSchema = z.enum(['swe-agent', 'mini-swe-agent', 'openhands', 'predictions']);
export type TrajectoryFormat = z.infer<typeof TrajectoryFormatSchema>;

/**
 * Where a problem sits in the source file. `line`/`column` are 1-based; `byteOffset` is 0-based
 * and present when the reader knows bytes (JSONL lines, streamed files); `jsonPath` names the value
 * inside the document (`$.trajectory[5].action`).
 */
export const SourcePositionSchema = z.object({
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  byteOffset: z.number().int().nonnegative().optional(),
  jsonPath: z.string().optional(),
});
export type SourcePosition = z.infer<typeof SourcePositionSchema>;

/** Something that could not be read (or was read with a doubt), with file and position. */
export const TrajectoryProblemSchema = SourcePositionSchema.extend({
  severity: z.enum(['error', 'warning']),
  file: z.string(),
  message: z.string(),
});
export type TrajectoryProblem = z.infer<typeof TrajectoryProblemSchema>;

export const ActionKindSchema = z.enum(['view', 'search', 'edit', 'create', 'run', 'test', 'submit', 'think', 'other']);
export type ActionKind = z.infer<typeof ActionKindSchema>;

/** A tool call as recorded by the agent (function-calling models, OpenHands actions). */
export const ToolCallSchema = z.object({
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  id: z.string().optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** Inclusive 1-based line range in the file as it was when the step ran. */
export const LineRangeSchema = z.object({
  start: z.number().int().positive(),
  end: z.number().int().positive(),
});
export type LineRange = z.infer<typeof LineRangeSchema>;

export const FileAccessSchema = z.enum(['view', 'search', 'edit', 'create', 'delete', 'run']);

/**
 * A file a step read or wrote. `path` is repository-relative when the repository root is known
 * (e.g. `pydicom/pixel_data_handlers/numpy_handler.py`), absolute otherwise. An empty `ranges`
 * means "the file as a whole or lines unknown".
 */
export const FileTouchSchema = z.object({
  path: z.string(),
  access: FileAccessSchema,
  ranges: z.array(LineRangeSchema),
});
export type FileTouch = z.infer<typeof FileTouchSchema>;

/**
 * The repository diff after a step. `recorded`: the agent's own output said so (a `submit`
 * observation, SWE-agent's `state.diff`, a `git diff` the agent ran). `reconstructed`: replayed
 * from the edit actions ChainLens can follow (editor commands, `edit a:b`, heredocs, simple
 * `sed -i`); `complete` is false when some change could not be derived and `gaps` says which
 * (never guessed). Files written invisibly (by a script the agent ran) are outside what can be
 * followed.
 */
export const PatchSoFarSchema = z.object({
  text: z.string(),
  origin: z.enum(['recorded', 'reconstructed']),
  complete: z.boolean(),
  gaps: z.array(z.string()),
});
export type PatchSoFar = z.infer<typeof PatchSoFarSchema>;

export const TrajectoryStepSchema = z.object({
  /** 0-based position in `steps`. */
  index: z.number().int().nonnegative(),
  thought: z.string(),
  /** The action as the agent wrote it (command text, or a rendering of the tool call). */
  action: z.string(),
  actionKind: ActionKindSchema,
  /** Why the step got its kind, in words (`SWE-agent edit command`, `runs pytest`). */
  actionKindReason: z.string(),
  /** Present when the source recorded a tool call. */
  tool: ToolCallSchema.optional(),
  observation: z.string(),
  /** Exit/return code of the command when the source records one. */
  exitCode: z.number().int().nullable(),
  filesTouched: z.array(FileTouchSchema),
  executionTimeSec: z.number().nullable(),
  /** ISO time when the source records one. */
  timestamp: z.string().optional(),
  patchSoFar: PatchSoFarSchema.nullable(),
  /** Where the step came from in the file (JSON path, plus line for JSONL). */
  origin: SourcePositionSchema,
});
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

export const ModelStatsSchema = z.object({
  costUsd: z.number().nullable(),
  tokensSent: z.number().nullable(),
  tokensReceived: z.number().nullable(),
  apiCalls: z.number().nullable(),
  /** The source's own stats object, unchanged. */
  raw: z.record(z.string(), z.unknown()),
});
export type ModelStats = z.infer<typeof ModelStatsSchema>;

export const TrajectorySourceSchema = z.object({
  format: TrajectoryFormatSchema,
  /** `v0`, `v1`, `1.1`, `legacy-list`, `v0-events`, `v1-events`, `preds-json`, `preds-jsonl`. */
  version: z.string(),
  file: z.string(),
  /** JSONL line (1-based) the trajectory came from. */
  line: z.number().int().positive().optional(),
});
export type TrajectorySource = z.infer<typeof TrajectorySourceSchema>;

export const TrajectorySchema = z.object({
  source: TrajectorySourceSchema,
  /** Where the repository sat in the agent's machine (`/testbed`), used to make paths relative. */
  workspaceRoot: z.string().nullable(),
  instanceId: z.string().nullable(),
  model: z.string().nullable(),
  exitStatus: z.string().nullable(),
  /** The final patch (unified diff); null when the run produced none or the file does not say. */
  submission: z.string().nullable(),
  modelStats: ModelStatsSchema.nullable(),
  problemStatement: z.string().nullable(),
  /** Image the run used, when the file names one (SWE-agent replay_config). */
  image: z.string().nullable(),
  /** Retry files: which attempt this is and whether the retry loop chose it. */
  attempt: z
    .object({ index: z.number().int().nonnegative(), count: z.number().int().positive(), chosen: z.boolean() })
    .nullable(),
  steps: z.array(TrajectoryStepSchema),
  problems: z.array(TrajectoryProblemSchema),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;

/** Everything read from one file: one trajectory (a .traj), several (output.jsonl, retry files). */
export const TrajectoryFileSchema = z.object({
  file: z.string(),
  format: TrajectoryFormatSchema.nullable(),
  version: z.string().nullable(),
  trajectories: z.array(TrajectorySchema),
  /** Problems not tied to one trajectory (unreadable lines, unknown format, truncation). */
  problems: z.array(TrajectoryProblemSchema),
});
export type TrajectoryFile = z.infer<typeof TrajectoryFileSchema>;

/** One file as of one step, as far as the trajectory (and any supplied base files) reveal it. */
export const FileSnapshotSchema = z.object({
  path: z.string(),
  stepIndex: z.number().int().nonnegative(),
  exists: z.boolean().nullable(),
  totalLines: z.number().int().nonnegative().nullable(),
  /** Runs of consecutive known lines (1-based start). */
  runs: z.array(z.object({ startLine: z.number().int().positive(), lines: z.array(z.string()) })),
  /** The whole text when every line is known. */
  text: z.string().nullable(),
  /** Why some content is unknown (never seen, or changed in a way that cannot be followed). */
  unknownBecause: z.string().nullable(),
});
export type FileSnapshot = z.infer<typeof FileSnapshotSchema>;
