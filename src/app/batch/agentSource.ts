// A batch's agent source (`--agent NAME=COMMAND`, docs/reference/agents.md): each of its steps is
// the agent's command run on the step's start state in the lane's work tree (app/agent/agentStep),
// then graded like any submitted step. What a resumed batch needs of it is kept in the run
// directory, never in the work tree: `agent/<lane>/step-<k>/` holds the step's problem statement,
// log, trajectory and the patch the agent left (replayed when the lane is rebuilt), and
// `agent/<lane>/memory*` the Seq+Mem memory with its copy at each step's start.
import { join, relative } from 'node:path';
import type { Chain } from '../../protocol/chain';
import { DEFAULT_AGENT_TIMEOUT_S } from '../../protocol/agentLoop';
import type { BatchManifest, BatchRecord, BatchSource } from '../../protocol/batch';
import { laneId, type StepKey } from '../../core/batch';
import type { BatchRunDir } from '../../infra/batch/runDir';
import { writeFileAtomic } from '../../infra/files';
import type { AgentPlacement } from '../../infra/agent/agentRunner';
import { stopLeftoverAgentsUnder } from '../../infra/agent/agentStepFiles';
import type { Workspace } from '../../infra/run/workspace';
import { runAgentStep } from '../agent/agentStep';

/** The patch an agent step left, kept beside its record (the lane's replay on resume reads it). */
export const AGENT_PATCH_FILE = 'patch.diff';

/** Where a batch's agents run: the manifest's placement; the container's image defaults to the chain's. */
function agentPlacementOf(manifest: BatchManifest, chainId: string): AgentPlacement {
  if (manifest.options.agent_in === 'host') return { kind: 'host' };
  const chain = manifest.chains.find((c) => c.id === chainId)!;
  return { kind: 'container', image: manifest.options.agent_image ?? manifest.options.image ?? chain.image };
}

/** Host agents of a killed batch still running (their pid notes are in the run directory): stopped. */
export function stopLeftoverAgents(runDir: string): void {
  stopLeftoverAgentsUnder(join(runDir, 'agent'));
}

/**
 * Runs the agent on step `k` of its lane and keeps its patch; null when the batch was cancelled
 * meanwhile (nothing kept: the step runs again from its start).
 */
export async function agentSourceStep(
  dir: BatchRunDir,
  manifest: BatchManifest,
  chain: Chain,
  source: BatchSource,
  k: StepKey,
  ws: Workspace,
  signal: AbortSignal | undefined,
): Promise<{ outcome: NonNullable<BatchRecord['agent']> } | null> {
  const laneDir = join(dir.root, 'agent', laneId(k));
  const ran = await runAgentStep({
    workspace: ws,
    order: k.order,
    mode: k.mode,
    command: source.command!,
    placement: agentPlacementOf(manifest, chain.id),
    timeoutS: manifest.options.agent_timeout_s ?? DEFAULT_AGENT_TIMEOUT_S,
    laneDir,
    signal,
  });
  if (!ran) return null;
  writeFileAtomic(join(laneDir, `step-${k.order}`, AGENT_PATCH_FILE), ran.patch);
  return {
    outcome: { ...ran.outcome, trajectory: ran.trajectoryPath ? relative(dir.root, ran.trajectoryPath) : null },
  };
}
