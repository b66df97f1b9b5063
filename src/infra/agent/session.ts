// An attached agent's session on a work tree: runs the ChainLens tools against the run (the
// same engine `chainlens submit` and VS Code use) and records every call, and every change the
// agent made to the work tree between calls, into the step's trajectory. Used by the MCP server
// (one per `chainlens mcp` process) and by VS Code's language-model tools.
import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentFeedback, AgentRecord } from '../../protocol/agent';
import type { Chain } from '../../protocol/chain';
import type { StepEvaluation } from '../../protocol/evaluation';
import type { RunState, StepState } from '../../protocol/run';
import { agentTool, parseToolArgs, type AgentToolDefinition } from '../../core/agent/tools';
import { currentStepView, refuseTestsReason, runStatusView, testFeedbackView } from '../../core/agent/views';
import { worktreeChange } from '../../core/agent/recorder';
import { isUserError, UserError } from '../../core/util/errors';
import { openWorkspace, type Workspace } from '../runs/workspace';
import { loadAgentRecord, loadAgentSettings, saveAgentRecord, saveAgentSettings } from './agentFiles';

export interface AgentToolResult {
  text: string;
  isError: boolean;
}

export interface AgentSessionOptions {
  dir: string;
  /** Who the agent is (becomes the step's author: agent-live with this name). */
  agent: string;
  /** Stores the run's test-feedback level when given (else the run's setting, default none). */
  feedback?: AgentFeedback;
  clock?: () => Date;
  /** How run_tests evaluates the work tree; default: a real container (src/infra/evaluation). */
  evaluate?: (ws: Workspace, signal?: AbortSignal) => Promise<StepEvaluation>;
}

const PERSON_ENDED = new Set<AgentRecord['exitStatus']>(['taken_over', 'stopped']);

export class AgentSession {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly workspace: Workspace,
    readonly agent: string,
    private readonly clock: () => Date,
    private readonly evaluate: (ws: Workspace, signal?: AbortSignal) => Promise<StepEvaluation>,
  ) {}

  static async open(opts: AgentSessionOptions): Promise<AgentSession> {
    if (!opts.agent.trim()) throw new UserError('the agent needs a name (--agent-name)', 'usage');
    const ws = await openWorkspace(opts.dir);
    const { state } = await ws.engine.open();
    if (opts.feedback) saveAgentSettings(ws.store.root, state.runId, { feedback: opts.feedback });
    return new AgentSession(ws, opts.agent.trim(), opts.clock ?? (() => new Date()), opts.evaluate ?? defaultEvaluate);
  }

  /** Runs one tool call (one at a time, in arrival order) and records it. Never throws. */
  call(name: string, args: unknown, signal?: AbortSignal): Promise<AgentToolResult> {
    const next = this.queue.then(() => this.callNow(name, args, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Records the work tree's change since the last observation, when the current step is this
   * agent's (edits it makes with its own tools between calls; a watcher calls this). A step a
   * person has is left alone: their edits are not the agent's.
   */
  observeWorkTree(): Promise<boolean> {
    const next = this.queue.then(async () => {
      const { state } = await this.workspace.engine.open();
      const step = currentStepOf(state);
      if (!step || step.author.kind !== 'agent-live' || step.author.agent !== this.agent) return false;
      const record = loadAgentRecord(this.workspace.store.root, state.runId, step.order);
      if (!record || record.start !== step.start || record.exitStatus !== 'working') return false;
      const now = this.clock();
      const observed = await this.observeInto(record, step, now);
      if (observed === record) return false;
      saveAgentRecord(this.workspace.store.root, observed, now);
      return true;
    });
    this.queue = next.catch(() => undefined);
    return next.catch(() => false);
  }

  private async callNow(name: string, rawArgs: unknown, signal?: AbortSignal): Promise<AgentToolResult> {
    const at = this.clock();
    let run: { state: RunState; chain: Chain };
    try {
      run = await this.workspace.engine.open();
    } catch (e) {
      return errorResult(e);
    }
    const step = currentStepOf(run.state);
    let record = step ? this.recordFor(run.state, run.chain, step, at) : null;
    const personHasIt = record !== null && PERSON_ENDED.has(record.exitStatus);
    let tool: AgentToolDefinition | null = null;
    let result: AgentToolResult;
    try {
      tool = agentTool(name);
      const args = parseToolArgs(tool, rawArgs);
      if (record && !personHasIt) {
        record = await this.observeInto(record, step!, at);
        run.state = await this.claim(run.state, step!);
      }
      if (personHasIt && !tool.readOnly) {
        throw new UserError(
          `a person ${record!.exitStatus === 'stopped' ? 'stopped the agent on' : 'took over'} step ${step!.order}; it is theirs to submit now`,
          'state',
        );
      }
      result = { text: await this.run(tool, args, run, signal), isError: false };
    } catch (e) {
      result = errorResult(e);
    }
    if (record && !personHasIt) this.finishCall(record, step!, name, rawArgs, result, at);
    return result;
  }

  private async run(
    tool: AgentToolDefinition,
    args: Record<string, unknown>,
    run: { state: RunState; chain: Chain },
    signal?: AbortSignal,
  ): Promise<string> {
    const ws = this.workspace;
    const feedback = loadAgentSettings(ws.store.root, run.state.runId).feedback;
    switch (tool.name) {
      case 'get_current_step':
        return json(currentStepView(run.state, run.chain, ws.dir, feedback));
      case 'get_run_status':
        return json(runStatusView(run.state));
      case 'run_tests': {
        const refusal = refuseTestsReason(feedback);
        if (refusal) throw new UserError(refusal, 'state');
        if (run.state.currentStep === null)
          throw new UserError(`run ${run.state.runId} is complete: there is no step to test`, 'state');
        return json(testFeedbackView(await this.evaluate(ws, signal), feedback as 'summary' | 'full'));
      }
      case 'submit_step':
        return json(await this.submit(run.state, args.step as number | undefined, args.summary as string | undefined));
    }
  }

  private async submit(state: RunState, expected: number | undefined, summary: string | undefined) {
    const step = currentStepOf(state);
    if (!step) throw new UserError(`run ${state.runId} is complete: every step has been submitted`, 'state');
    if (expected !== undefined && expected !== step.order)
      throw new UserError(
        `you asked to submit step ${expected}, but the run is on step ${step.order}; nothing was submitted`,
        'state',
      );
    const { state: after, notes, submitted } = await this.workspace.engine.submit();
    const done = after.steps.find((s) => s.order === submitted)!;
    const record = loadAgentRecord(this.workspace.store.root, state.runId, submitted);
    if (record) {
      const now = this.clock();
      const submission = await this.workspace.git.diff(done.start!, done.end!);
      saveAgentRecord(
        this.workspace.store.root,
        { ...record, exitStatus: 'submitted', endedAt: now.toISOString(), submission, ...(summary ? { summary } : {}) },
        now,
      );
    }
    return {
      submitted,
      patch: done.patch,
      nextStep: after.currentStep,
      complete: after.currentStep === null,
      ...(after.currentStep !== null ? { nextAuthor: currentStepOf(after)!.author.kind } : {}),
      notes,
    };
  }

  /** The step's record, started now if the agent has not touched the step before. */
  private recordFor(state: RunState, chain: Chain, step: StepState, at: Date): AgentRecord {
    const existing = loadAgentRecord(this.workspace.store.root, state.runId, step.order);
    if (existing && existing.start === step.start) return existing;
    return {
      schema: 1,
      runId: state.runId,
      step: step.order,
      instanceId: step.instanceId,
      agent: this.agent,
      start: step.start!,
      startedAt: at.toISOString(),
      endedAt: null,
      exitStatus: 'working',
      submission: null,
      problemStatement: chain.steps.find((s) => s.order === step.order)!.problemStatement,
      workspaceRoot: this.workspace.dir,
      events: [],
    };
  }

  /** Adds the work-tree change since the last observation (edits the agent made with its own tools). */
  private async observeInto(record: AgentRecord, step: StepState, at: Date): Promise<AgentRecord> {
    const patch = await this.workspace.git.diffWorkTree(step.start!);
    const change = worktreeChange(lastPatch(record), patch, `change-${record.events.length + 1}`, at.toISOString());
    return change ? { ...record, events: [...record.events, change] } : record;
  }

  /** The step becomes this agent's (agent-live) unless it already is. */
  private async claim(state: RunState, step: StepState): Promise<RunState> {
    if (step.author.kind === 'agent-live' && step.author.agent === this.agent) return state;
    if (step.author.kind !== 'human' && step.author.kind !== 'agent-live') return state;
    return this.workspace.engine.setAuthor({ kind: 'agent-live', agent: this.agent });
  }

  private finishCall(
    record: AgentRecord,
    step: StepState,
    name: string,
    rawArgs: unknown,
    result: AgentToolResult,
    at: Date,
  ): void {
    const now = this.clock();
    const event: AgentEvent = {
      kind: 'tool',
      id: `call-${randomUUID().slice(0, 8)}`,
      tool: name,
      args: isPlainObject(rawArgs) ? rawArgs : { value: rawArgs ?? null },
      result: result.text,
      isError: result.isError,
      at: at.toISOString(),
      durationMs: Math.max(0, now.getTime() - at.getTime()),
    };
    // submit_step saved the submitted record itself: add the call to that one.
    const latest = loadAgentRecord(this.workspace.store.root, record.runId, step.order);
    const base =
      latest && latest.exitStatus === 'submitted' && latest.start === record.start
        ? { ...latest, events: record.events }
        : record;
    saveAgentRecord(this.workspace.store.root, { ...base, agent: this.agent, events: [...base.events, event] }, now);
  }
}

function currentStepOf(state: RunState): StepState | null {
  return state.currentStep === null ? null : (state.steps.find((s) => s.order === state.currentStep) ?? null);
}

function lastPatch(record: AgentRecord): string {
  for (let i = record.events.length - 1; i >= 0; i--) {
    const e = record.events[i];
    if (e.kind === 'worktree') return e.patch;
  }
  return '';
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function errorResult(e: unknown): AgentToolResult {
  if (isUserError(e)) return { text: `Error: ${e.message}`, isError: true };
  return { text: `Error: ChainLens failed: ${(e as Error)?.message ?? String(e)}`, isError: true };
}

async function defaultEvaluate(ws: Workspace, signal?: AbortSignal): Promise<StepEvaluation> {
  const { evaluateStep } = await import('../evaluation');
  return evaluateStep({ dir: ws.dir, source: 'worktree', workspace: ws, signal });
}
