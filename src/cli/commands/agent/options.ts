// The agent options `chainlens agent run` and `chainlens batch` share, checked the same way.
import { AgentModeSchema, AgentPlacementKindSchema, DEFAULT_AGENT_TIMEOUT_S } from '../../../protocol/agentLoop';
import type { AgentMode, AgentPlacementKind } from '../../../protocol/agentLoop';
import { imageReferenceProblem } from '../../../core/formats/imageReference';
import { UserError } from '../../../core/util/errors';

export const AGENT_OPTIONS = {
  'agent-in': { type: 'string' },
  'agent-image': { type: 'string' },
  'agent-timeout': { type: 'string' },
} as const;

export function parseAgentMode(value: string): AgentMode {
  const parsed = AgentModeSchema.safeParse(value.trim());
  if (!parsed.success) throw new UserError(`--mode must be oracle, seq or seq+mem, not '${value}'`, 'usage');
  return parsed.data;
}

export function parseAgentIn(value: string | undefined): AgentPlacementKind {
  if (value === undefined) return 'container';
  const parsed = AgentPlacementKindSchema.safeParse(value.trim());
  if (!parsed.success) throw new UserError(`--agent-in must be container or host, not '${value}'`, 'usage');
  return parsed.data;
}

export function parseAgentImage(value: string | undefined, agentIn: AgentPlacementKind): string | undefined {
  if (value === undefined) return undefined;
  if (agentIn === 'host') throw new UserError('--agent-image applies to --agent-in container only', 'usage');
  const problem = imageReferenceProblem(value);
  if (problem) throw new UserError(`--agent-image: ${problem}`, 'usage');
  return value;
}

export function parseAgentTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_AGENT_TIMEOUT_S;
  const n = Number(value);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value) || !Number.isFinite(n) || n <= 0)
    throw new UserError(`--agent-timeout must be a positive number of seconds, not '${value}'`, 'usage');
  return n;
}
