import * as z from 'zod';

/**
 * What an attached agent may learn from the tests while it works a step. `none` is what a
 * benchmark agent gets (SWE-bench agents see only the problem statement); `summary` says
 * resolved or not with pass/fail counts; `full` adds every test's status (and so its name).
 */
export const AgentFeedbackSchema = z.enum(['none', 'summary', 'full']);
export type AgentFeedback = z.infer<typeof AgentFeedbackSchema>;

/** Per-run agent settings, in `<state folder>/runs/<run>/agent/settings.json`. */
export const AgentSettingsSchema = z.object({
  feedback: AgentFeedbackSchema,
});
export type AgentSettings = z.infer<typeof AgentSettingsSchema>;

export const AgentToolNameSchema = z.enum(['get_current_step', 'get_run_status', 'submit_step', 'run_tests']);
export type AgentToolName = z.infer<typeof AgentToolNameSchema>;

/** Arguments of each tool, checked before anything runs (a bad call changes nothing). */
export const GetCurrentStepArgsSchema = z.object({}).strict();
export const GetRunStatusArgsSchema = z.object({}).strict();
export const SubmitStepArgsSchema = z
  .object({
    /** The step the agent believes it is submitting: refuses when the run has moved on. */
    step: z.number().int().positive().optional(),
    /** What the agent did, in a sentence (kept in the trajectory). */
    summary: z.string().max(4000).optional(),
    /** Submit the step with no change (an empty patch); without it such a submit is refused. */
    allow_empty: z.boolean().optional(),
  })
  .strict();
export const RunTestsArgsSchema = z.object({}).strict();

/**
 * One thing that happened while an agent worked a step: a tool call it made through ChainLens,
 * or a change to the work tree seen between calls (edits it made with its own tools).
 */
export const AgentEventSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    tool: z.string(),
    args: z.record(z.string(), z.unknown()),
    /** The text the agent got back (or the error). */
    result: z.string(),
    isError: z.boolean(),
    at: z.string(),
    durationMs: z.number().nonnegative(),
  }),
  z.object({
    kind: z.literal('worktree'),
    id: z.string(),
    /** Files whose change since the step start differs from the previous observation. */
    files: z.array(z.object({ path: z.string(), change: z.enum(['added', 'modified', 'deleted']) })),
    /** The changed files' diff sections (their whole change since the step start). */
    diff: z.string(),
    /** The work tree's whole diff from the step start, after this change. */
    patch: z.string(),
    at: z.string(),
  }),
]);
export type AgentEvent = z.infer<typeof AgentEventSchema>;

/** The recording of one agent working one step (kept inside its trajectory file). */
export const AgentRecordSchema = z.object({
  schema: z.literal(1),
  runId: z.string(),
  step: z.number().int().positive(),
  instanceId: z.string(),
  agent: z.string(),
  /** The commit the step started from: every patch in the record is relative to it. */
  start: z.string(),
  startedAt: z.string(),
  /** Set when the agent submitted the step, or a person took it over or stopped the agent. */
  endedAt: z.string().nullable(),
  exitStatus: z.enum(['working', 'submitted', 'taken_over', 'stopped']),
  /** The final patch (the submitted step's diff), null while working. */
  submission: z.string().nullable(),
  /** What the agent said it did when it submitted. */
  summary: z.string().optional(),
  problemStatement: z.string(),
  workspaceRoot: z.string(),
  events: z.array(AgentEventSchema),
});
export type AgentRecord = z.infer<typeof AgentRecordSchema>;
