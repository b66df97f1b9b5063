// `chainlens agent run`: an agent, as a command, over one chain in one work tree, in ChainSWE's
// Oracle, Seq or Seq+Mem mode (docs/reference/agents.md). Each step: the agent runs on the step's
// start state (agentStep.ts), the step is submitted and graded by evaluateStep. Run again on the
// same --dir, it continues: graded steps are kept, a step cut short runs again from its start.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentMode, AgentPlacementKind, AgentStepOutcome } from '../../protocol/agentLoop';
import type { StepEvaluation } from '../../protocol/evaluation';
import type { GradingProfile } from '../../protocol/grading';
import { evaluationImage } from '../../core/evaluation/stepSpec';
import { OptionError, UserError } from '../../core/util/errors';
import { connectDocker, ensureImage, orphanSweepSettled } from '../../infra/docker';
import { writeFileAtomic } from '../../infra/files';
import { openWorkspace, type Workspace } from '../../infra/run/workspace';
import { orShutdown } from '../../infra/process/shutdown';
import type { AgentPlacement } from '../../infra/agent/agentRunner';
import { evaluateStep } from '../evaluation/evaluateStep';
import { planRun, startRun } from '../run/startRun';
import { runAgentStep } from './agentStep';

export interface AgentRunOptions {
  readonly cwd: string;
  readonly chainFile: string;
  readonly repo: string;
  readonly dir: string;
  readonly mode: AgentMode;
  readonly command: string;
  readonly agentIn: AgentPlacementKind;
  /** Container placement: the agent's image; default the step's (the chain's docker_image). */
  readonly agentImage?: string;
  readonly agentTimeoutS: number;
  readonly chainId?: string;
  /**
   * A CodeThread task's condition (docs/reference/codethread.md): AA, the agent writes PR1 (graded
   * by the PR1 filter) and then PR2 on it; HA, PR1 is the human's (gold) and the agent writes PR2.
   */
  readonly condition?: 'AA' | 'HA';
  /** Only these steps (instance ids, comma-separated), as `chainlens checkout --instances`. */
  readonly instances?: string;
  /** Evaluation settings, as `chainlens eval` takes them. */
  readonly image?: string;
  readonly timeoutS?: number;
  readonly profile?: GradingProfile;
  readonly signal?: AbortSignal;
  readonly onNote?: (line: string) => void;
  readonly onStep?: (step: AgentRunStep) => void;
}

/** What one step of the run came to: the agent's outcome and the step's grade. */
export interface AgentRunStep {
  readonly order: number;
  readonly position: number;
  readonly instance_id: string;
  /** Null for a step the agent did not write (HA's human PR1). */
  readonly agent: AgentStepOutcome | null;
  readonly evaluation: Pick<
    StepEvaluation,
    'status' | 'resolved' | 'error' | 'error_kind' | 'tests_status' | 'duration_s' | 'log_path'
  >;
}

export interface AgentRunResult {
  readonly dir: string;
  readonly runId: string;
  readonly steps: AgentRunStep[];
  readonly resumed: boolean;
  readonly cancelled: boolean;
}

/** What a loop is, kept beside its run: a second `agent run` on the dir continues only the same loop. */
interface LoopIdentity {
  readonly chain_id: string;
  readonly mode: AgentMode;
  readonly command: string;
  readonly condition?: 'AA' | 'HA';
}

export async function runAgentOverChain(o: AgentRunOptions): Promise<AgentRunResult> {
  const signal = orShutdown(o.signal);
  const note = o.onNote ?? (() => {});
  if (o.condition && o.mode !== 'seq')
    throw new OptionError('condition', `${o.condition} runs PR2 on PR1's end, so the mode must be seq, not ${o.mode}`);
  const engineMode = o.mode === 'oracle' ? 'oracle' : 'seq';
  const plan = await planRun(o.cwd, {
    chainFile: o.chainFile,
    repo: o.repo,
    dir: o.dir,
    mode: engineMode,
    chainId: o.chainId,
    instances: o.instances,
    defaultAuthor: 'human',
    quietStatus: true,
    operation: 'agent run',
    condition: o.condition,
  });
  const image = evaluationImage(plan.chain, o.image);
  const placement: AgentPlacement =
    o.agentIn === 'host' ? { kind: 'host' } : { kind: 'container', image: o.agentImage ?? image };
  // The engine and the images before anything is written: a missing one leaves no work tree.
  const docker = await connectDocker();
  for (const img of new Set([image, ...(placement.kind === 'container' ? [placement.image] : [])]))
    await ensureImage(img, undefined, docker);
  // A killed ChainLens's agent container is gone before its step's work tree is reset.
  await orphanSweepSettled();

  const identity: LoopIdentity = {
    chain_id: plan.chain.id,
    mode: o.mode,
    command: o.command,
    ...(o.condition ? { condition: o.condition } : {}),
  };
  let ws = await resumable(plan.dir, identity);
  const resumed = ws !== null;
  if (ws) note(`continuing the agent run in ${ws.dir}`);
  else {
    const started = await startRun(
      {
        ...plan,
        // HA: PR1 is the original developer's (gold, applied at once); every other step the agent's.
        authors: plan.chain.steps.map((_, i) =>
          o.condition === 'HA' && i === 0
            ? { kind: 'gold' as const }
            : { kind: 'agent-live' as const, agent: 'command' },
        ),
      },
      note,
    );
    for (const line of started.notes) note(line);
    ws = started.workspace;
    writeFileAtomic(loopFile(ws, started.state.runId), JSON.stringify(identity, null, 2) + '\n');
  }

  const steps: AgentRunStep[] = [];
  const { state: first } = await ws.engine.open();
  const laneDir = join(ws.store.root, 'agent-loop', first.runId);
  for (let index = 0; index < first.steps.length; index++) {
    if (signal.aborted) break;
    const { state, chain } = await ws.engine.open();
    const step = state.steps[index];
    const resultFile = join(laneDir, `step-${step.order}.result.json`);
    if (existsSync(resultFile)) {
      steps.push(JSON.parse(readFileSync(resultFile, 'utf8')) as AgentRunStep);
      continue;
    }
    let agent: AgentStepOutcome | null;
    const outcomeFile = join(laneDir, `step-${step.order}.agent.json`);
    if (step.status === 'current') {
      note(`step ${step.order} (${step.instanceId}): running the agent`);
      const ran = await runAgentStep({
        workspace: ws,
        order: step.order,
        mode: o.mode,
        command: o.command,
        placement,
        timeoutS: o.agentTimeoutS,
        laneDir,
        signal,
      });
      if (!ran) break;
      agent = ran.outcome;
      writeFileAtomic(outcomeFile, JSON.stringify(agent, null, 2) + '\n');
    } else if (step.author.kind === 'gold') {
      agent = null; // HA's human PR1: graded like the agent's steps, written by no agent
    } else if (existsSync(outcomeFile)) {
      // Submitted before a kill, not graded yet: graded now, the agent is not run again.
      agent = JSON.parse(readFileSync(outcomeFile, 'utf8')) as AgentStepOutcome;
    } else {
      throw new UserError(`step ${step.order} of the run in ${ws.dir} was not made by this agent run`, 'state');
    }
    const evaluation = await evaluateStep({
      dir: ws.dir,
      workspace: ws,
      step: step.order,
      source: 'submitted',
      image: o.image,
      timeoutS: o.timeoutS,
      profile: o.profile,
      signal,
    });
    if (evaluation.error_kind === 'cancelled') break;
    const result: AgentRunStep = {
      order: step.order,
      position: index + 1,
      instance_id: chain.steps[index].instanceId,
      agent,
      evaluation: {
        status: evaluation.status,
        resolved: evaluation.resolved,
        error: evaluation.error,
        error_kind: evaluation.error_kind,
        tests_status: evaluation.tests_status,
        duration_s: evaluation.duration_s,
        log_path: evaluation.log_path,
      },
    };
    writeFileAtomic(resultFile, JSON.stringify(result, null, 2) + '\n');
    steps.push(result);
    o.onStep?.(result);
  }
  return { dir: ws.dir, runId: first.runId, steps, resumed, cancelled: signal.aborted };
}

function loopFile(ws: Workspace, runId: string): string {
  return join(ws.store.root, 'agent-loop', runId, 'loop.json');
}

/** The work tree in `dir` when its current run is this same agent loop (to continue), else null. */
async function resumable(dir: string, identity: LoopIdentity): Promise<Workspace | null> {
  if (!existsSync(join(dir, '.git'))) return null;
  let ws: Workspace;
  try {
    ws = await openWorkspace(dir);
    const { state } = ws.engine.read();
    const file = loopFile(ws, state.runId);
    if (!existsSync(file)) return null;
    const saved = JSON.parse(readFileSync(file, 'utf8')) as LoopIdentity;
    if (
      saved.chain_id !== identity.chain_id ||
      saved.mode !== identity.mode ||
      saved.command !== identity.command ||
      saved.condition !== identity.condition
    )
      return null;
    return ws;
  } catch {
    return null;
  }
}
