// A person and an agent passing the current step between them (the AH condition: the agent
// solves step 1, a person step 2): stop the agent, take the step over, or hand it to the agent.
// The step's author in the run says who has it; the agent's record says why it ended.
import type { AgentRecord } from '../../protocol/agent';
import type { RunState } from '../../protocol/run';
import { worktreeChange } from '../../core/agent/recorder';
import { UserError } from '../../core/util/errors';
import { openWorkspace, type Workspace } from '../run/workspace';
import { loadAgentRecord, saveAgentRecord } from './agentFiles';
import { agentRefusal } from '../../core/study/disclosure';
import { runDisclosure } from '../study/runDisclosure';

export interface HandoverResult {
  state: RunState;
  step: number;
  /** The agent's trajectory of the step, when it had one. */
  record: AgentRecord | null;
}

/**
 * The current step becomes a person's: the agent's record ends (`taken_over`, or `stopped` when
 * the person only wanted the agent to stop), and the agent's later submit_step calls are refused.
 * The work tree is left as it is, so the person continues from what the agent did.
 */
export async function takeOverStep(
  dir: string | Workspace,
  how: 'taken_over' | 'stopped',
  person?: string,
): Promise<HandoverResult> {
  const ws = typeof dir === 'string' ? await openWorkspace(dir) : dir;
  // One lock for the record and the author: an agent's call cannot land between the two.
  return ws.store.hold(how === 'stopped' ? 'stop the agent' : 'take the step over', () =>
    takeOverHeld(ws, how, person),
  );
}

async function takeOverHeld(ws: Workspace, how: 'taken_over' | 'stopped', person?: string): Promise<HandoverResult> {
  const { state, chain } = await ws.engine.open();
  if (state.currentStep === null)
    throw new UserError(`run ${state.runId} is complete: there is no step to take over`, 'state');
  const step = state.steps.find((s) => s.order === state.currentStep)!;
  const now = new Date();
  const existing = loadAgentRecord(ws.store.root, state.runId, step.order);
  const base: AgentRecord =
    existing && existing.start === step.start
      ? existing
      : {
          schema: 1,
          runId: state.runId,
          step: step.order,
          instanceId: step.instanceId,
          agent: step.author.kind === 'agent-live' ? step.author.agent : 'agent',
          start: step.start!,
          startedAt: now.toISOString(),
          endedAt: null,
          exitStatus: 'working',
          submission: null,
          problemStatement: chain.steps.find((s) => s.order === step.order)!.problemStatement,
          workspaceRoot: ws.dir,
          events: [],
        };
  // What the agent changed since its last tool call is its work too: record it before the step changes hands.
  const lastPatch = [...base.events].reverse().find((e) => e.kind === 'worktree')?.patch ?? '';
  const change = existing
    ? worktreeChange(
        lastPatch,
        await ws.git.diffWorkTree(step.start!),
        `change-${base.events.length + 1}`,
        now.toISOString(),
      )
    : null;
  const record: AgentRecord = {
    ...base,
    events: change ? [...base.events, change] : base.events,
    exitStatus: how,
    endedAt: now.toISOString(),
  };
  saveAgentRecord(ws.store.root, record, now);
  // A study participant's step stays theirs, under their pseudonymous id (never the OS user's name).
  const participant = runDisclosure(ws.store.root, state).record?.participant;
  const name = participant || person;
  const next = await ws.engine.setAuthor(name ? { kind: 'human', name } : { kind: 'human' });
  return { state: next, step: step.order, record: existing ? record : null };
}

/** The current step goes to the agent `agent` (its record, if a person had ended it, reopens). */
export async function handStepToAgent(dir: string | Workspace, agent: string): Promise<HandoverResult> {
  if (!agent.trim()) throw new UserError('the agent needs a name', 'usage');
  const ws = typeof dir === 'string' ? await openWorkspace(dir) : dir;
  return ws.store.hold('hand the step to the agent', () => handOverHeld(ws, agent));
}

async function handOverHeld(ws: Workspace, agent: string): Promise<HandoverResult> {
  const { state } = await ws.engine.open();
  if (state.currentStep === null)
    throw new UserError(`run ${state.runId} is complete: there is no step to hand over`, 'state');
  const step = state.steps.find((s) => s.order === state.currentStep)!;
  const refusal = agentRefusal(runDisclosure(ws.store.root, state).disclosure, state);
  if (refusal) throw new UserError(refusal, 'state');
  const existing = loadAgentRecord(ws.store.root, state.runId, step.order);
  let record: AgentRecord | null = null;
  if (existing && existing.start === step.start && existing.exitStatus !== 'working') {
    record = { ...existing, exitStatus: 'working', endedAt: null, agent: agent.trim() };
    saveAgentRecord(ws.store.root, record, new Date());
  }
  const next = await ws.engine.setAuthor({ kind: 'agent-live', agent: agent.trim() });
  return { state: next, step: step.order, record };
}
