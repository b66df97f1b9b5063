// One step of an agent's run over a chain (docs/reference/agents.md): the agent's command runs
// once on the step's start state, the step is submitted with whatever the command left (untracked
// files included), and the caller grades it through evaluateStep like any submitted step. The
// agent gets no test feedback: nothing is evaluated until its command has ended.
import { existsSync, readFileSync } from 'node:fs';
import type { AgentMode, AgentStepOutcome } from '../../protocol/agentLoop';
import { parseTrajectory } from '../../core/trajectories';
import { UserError } from '../../core/util/errors';
import { runAgent, stopLeftoverAgent, type AgentPlacement } from '../../infra/agent/agentRunner';
import { agentPidFile, prepareAgentStep } from '../../infra/agent/agentStepFiles';
import type { Workspace } from '../../infra/run/workspace';

export interface AgentStepRequest {
  readonly workspace: Workspace;
  readonly order: number;
  readonly mode: AgentMode;
  readonly command: string;
  readonly placement: AgentPlacement;
  readonly timeoutS: number;
  /** The lane's folder for the agent's files (outside the work tree). */
  readonly laneDir: string;
  readonly signal?: AbortSignal;
}

export interface AgentStepResult {
  readonly outcome: AgentStepOutcome;
  /** The step's patch: the work tree's change from the step's start. */
  readonly patch: string;
  /** Host path of the trajectory the agent wrote, when it wrote one. */
  readonly trajectoryPath: string | null;
}

/**
 * Runs the agent on the current step `order` and submits what it left. The work tree is first
 * put back to the step's start (a step cut short by a kill runs again from there; ChainLens's
 * own files are never in it). Returns null when the caller's signal stopped the agent: the step
 * stays current and unsubmitted, to run again.
 */
export async function runAgentStep(req: AgentStepRequest): Promise<AgentStepResult | null> {
  const ws = req.workspace;
  const { state, chain } = await ws.engine.open();
  if (state.currentStep !== req.order)
    throw new UserError(
      `the run is on step ${state.currentStep ?? 'none (complete)'}, not step ${req.order}; the agent runs only on the current step`,
      'state',
    );
  const index = state.steps.findIndex((s) => s.order === req.order);
  const step = state.steps[index];
  const chainStep = chain.steps[index];
  // An agent of a killed ChainLens still running on this step would write into the reset tree.
  stopLeftoverAgent(agentPidFile(req.laneDir, req.order));
  await resetToStart(ws, step.start!);
  const paths = prepareAgentStep(
    req.laneDir,
    req.order,
    chainStep.instanceId,
    chainStep.problemStatement,
    req.mode === 'seq+mem',
  );
  const run = await runAgent(req.placement, {
    command: req.command,
    workTree: ws.dir,
    problemFile: paths.problemFile,
    memoryDir: paths.memoryDir,
    trajectoryPath: paths.trajectoryPath,
    env: {
      CHAINLENS_CHAIN_ID: chain.id,
      CHAINLENS_INSTANCE_ID: chainStep.instanceId,
      CHAINLENS_STEP: String(index + 1),
      CHAINLENS_MODE: req.mode,
    },
    timeoutS: req.timeoutS,
    logPath: paths.logPath,
    pidFile: paths.pidFile,
    runId: state.runId,
    signal: req.signal,
  });
  if (run.cancelled || req.signal?.aborted) return null;
  const trajectory = existsSync(paths.trajectoryPath) ? paths.trajectoryPath : null;
  const stats = trajectory ? trajectoryStats(trajectory) : null;
  // Everything the command left, untracked files included, is the step's end.
  const submitted = await ws.engine.submit({ step: req.order, allowEmpty: true, noChangeIsEmptyPatch: true });
  const end = submitted.state.steps[index].end!;
  return {
    outcome: {
      exit_code: run.exitCode,
      signal: run.signal,
      timed_out: run.timedOut,
      wall_time_s: run.wallTimeS,
      placement: req.placement.kind,
      image: req.placement.kind === 'container' ? req.placement.image : null,
      trajectory,
      cost_usd: stats?.costUsd ?? null,
      tokens_sent: stats?.tokensSent ?? null,
      tokens_received: stats?.tokensReceived ?? null,
    },
    patch: await ws.git.diff(step.start!, end),
    trajectoryPath: trajectory,
  };
}

/** The work tree exactly at the step's start: tracked files reset, everything else removed. */
async function resetToStart(ws: Workspace, start: string): Promise<void> {
  await ws.git.raw(['reset', '--hard', '--quiet', start]);
  await ws.git.raw(['clean', '-ffdxq']);
}

/** Cost and tokens, when the trajectory is one ChainLens reads and records them. */
function trajectoryStats(
  path: string,
): { costUsd: number | null; tokensSent: number | null; tokensReceived: number | null } | null {
  try {
    const parsed = parseTrajectory(path, readFileSync(path, 'utf8'));
    const stats = parsed.trajectories[0]?.modelStats;
    return stats
      ? { costUsd: stats.costUsd, tokensSent: stats.tokensSent, tokensReceived: stats.tokensReceived }
      : null;
  } catch {
    return null;
  }
}
