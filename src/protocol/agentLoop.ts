import * as z from 'zod';

/**
 * An agent run over a whole chain (docs/reference/agents.md): ChainSWE's three modes (§4.3).
 * `oracle` and `seq` are the run engine's modes; `seq+mem` has Seq's repository states and one
 * memory directory that travels from step to step (the agent's conversation is its own, not the
 * repository's).
 */
export const AGENT_MODES = ['oracle', 'seq', 'seq+mem'] as const;
export const AgentModeSchema = z.enum(AGENT_MODES);
export type AgentMode = z.infer<typeof AgentModeSchema>;

/** Where the agent's command runs: a container with only its own files mounted, or the user's machine. */
export const AGENT_PLACEMENTS = ['container', 'host'] as const;
export const AgentPlacementKindSchema = z.enum(AGENT_PLACEMENTS);
export type AgentPlacementKind = z.infer<typeof AgentPlacementKindSchema>;

/** Default --agent-timeout: an hour per step. */
export const DEFAULT_AGENT_TIMEOUT_S = 3600;

/**
 * What one agent step did, kept with the step's record. A non-zero exit or a timeout is the
 * agent's outcome (the patch it left is graded), never an infrastructure failure.
 */
export const AgentStepOutcomeSchema = z.object({
  /** The command's exit code; null when it was killed by a signal (a timeout among them). */
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  wall_time_s: z.number(),
  placement: AgentPlacementKindSchema,
  /** The image the command ran in (container placement). */
  image: z.string().nullable(),
  /** Where its trajectory is kept (relative to the run directory in a batch), when it wrote one. */
  trajectory: z.string().nullable(),
  /** Cost (USD) and tokens, when the trajectory records them. */
  cost_usd: z.number().nullable(),
  tokens_sent: z.number().nullable(),
  tokens_received: z.number().nullable(),
});
export type AgentStepOutcome = z.infer<typeof AgentStepOutcomeSchema>;
