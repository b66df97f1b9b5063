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
import { agentFeedbackFor, agentRefusal } from '../../core/study/disclosure';
import { runDisclosure } from '../../infra/study/runDisclosure';
import { worktreeChange } from '../../core/agent/recorder';
import { OptionError, UserError, isUserError } from '../../core/util/errors';
import { RunInUseError } from '../../core/run/engine';
import { openWorkspace, type Workspace } from '../../infra/run/workspace';
import { loadAgentRecord, loadAgentSettings, saveAgentRecord, saveAgentSettings } from '../../infra/agent/agentFiles';

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
  /** How run_tests evaluates the work tree; default: a real container (src/app/evaluation). */
  evaluate?: (ws: Workspace, signal?: AbortSignal) => Promise<StepEvaluation>;
}

const PERSON_ENDED = new Set<AgentRecord['exitStatus']>(['taken_over', 'stopped']);

/** The lock operation of recording the agent's own edits between calls (a file watcher triggers it). */
const RECORD_WORK_TREE = 'record the work tree';
/** How long a tool call waits for such a recording: it holds the run for milliseconds. */
const RECORDING_WAIT_MS = 5_000;

/**
 * Runs `take` (which takes the run's lock), waiting while the lock is held by a recording of the
 * work tree: a tool call refused because a watcher of this or another agent session is noting an
 * edit would fail for no reason the agent could act on. Any other holder is refused at once, as
 * every writer is (docs/run-state.md, "One writer per run").
 */
async function holdPastRecording<T>(take: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RECORDING_WAIT_MS;
  for (;;) {
    try {
      return await take();
    } catch (e) {
      if (!(e instanceof RunInUseError) || e.holderOperation !== RECORD_WORK_TREE || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** When a call was made, and whether another submit_step of this session was in flight then. */
interface Arrival {
  at: number;
  duplicateSubmit: boolean;
}

/** A call's locked part: its answer, or (run_tests) what the unlocked container run needs. */
interface Begun {
  result: AgentToolResult;
  tests?: { own: { record: AgentRecord; step: StepState } | null; feedback: 'summary' | 'full'; at: Date };
}

export class AgentSession {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly workspace: Workspace,
    readonly agent: string,
    private readonly clock: () => Date,
    private readonly evaluate: (ws: Workspace, signal?: AbortSignal) => Promise<StepEvaluation>,
  ) {}

  static async open(opts: AgentSessionOptions): Promise<AgentSession> {
    if (!opts.agent.trim()) throw new OptionError('agentName', 'the agent needs a name');
    const ws = await openWorkspace(opts.dir);
    const { state } = await ws.engine.open();
    // A study participant's step is theirs: attaching an agent would rewrite who authored it.
    const refusal = agentRefusal(runDisclosure(ws.store.root, state).disclosure, state);
    if (refusal) throw new UserError(`${ws.dir}: ${refusal}`, 'state');
    if (opts.feedback) saveAgentSettings(ws.store.root, state.runId, { feedback: opts.feedback });
    return new AgentSession(ws, opts.agent.trim(), opts.clock ?? (() => new Date()), opts.evaluate ?? defaultEvaluate);
  }

  /** submit_step calls queued or running in this session (a second one meanwhile is a duplicate). */
  private submitsInFlight = 0;

  /**
   * Runs one tool call (one at a time, in arrival order) and records it. Never throws. Each call
   * holds the run's lock while it reads and changes the run (run_tests not while its container
   * runs), so it is refused, not interleaved, while a person or another process changes the run.
   */
  call(name: string, args: unknown, signal?: AbortSignal): Promise<AgentToolResult> {
    const arrival: Arrival = { at: Date.now(), duplicateSubmit: name === 'submit_step' && this.submitsInFlight > 0 };
    if (name === 'submit_step') this.submitsInFlight++;
    const next = this.queue
      .then(() => this.callNow(name, args, arrival, signal))
      .finally(() => {
        if (name === 'submit_step') this.submitsInFlight--;
      });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Records the work tree's change since the last observation, when the current step is this
   * agent's (edits it makes with its own tools between calls; a watcher calls this). A step a
   * person has is left alone: their edits are not the agent's.
   */
  observeWorkTree(): Promise<boolean> {
    const next = this.queue.then(() => this.workspace.store.hold(RECORD_WORK_TREE, () => this.observeHeld()));
    this.queue = next.catch(() => undefined);
    return next.catch(() => false);
  }

  private async observeHeld(): Promise<boolean> {
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
  }

  private async callNow(
    name: string,
    rawArgs: unknown,
    arrival: Arrival,
    signal?: AbortSignal,
  ): Promise<AgentToolResult> {
    let begun: Begun;
    try {
      begun = await holdPastRecording(() => this.workspace.store.hold(name, () => this.begin(name, rawArgs, arrival)));
    } catch (e) {
      return errorResult(e); // the run was busy: nothing was done, so there is nothing to record either
    }
    if (!begun.tests) return begun.result;
    // run_tests: the container runs without the lock (minutes), so a person can still take over meanwhile.
    const { own, feedback, at } = begun.tests;
    let result: AgentToolResult;
    try {
      result = { text: json(testFeedbackView(await this.evaluate(this.workspace, signal), feedback)), isError: false };
    } catch (e) {
      result = errorResult(e);
    }
    if (!own) return result;
    try {
      await this.workspace.store.hold(name, async () =>
        this.finishCall(own.record, own.step, name, rawArgs, result, at),
      );
    } catch {
      // Busy now: the answer still goes back; only this call's event is missing from the trajectory.
    }
    return result;
  }

  /** The locked part of a call: everything but the container of run_tests. */
  private async begin(name: string, rawArgs: unknown, arrival: Arrival): Promise<Begun> {
    const at = this.clock();
    let run: { state: RunState; chain: Chain };
    try {
      run = await this.workspace.engine.open();
    } catch (e) {
      return { result: errorResult(e) };
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
      if (tool.name === 'run_tests') {
        const feedback = this.testsAllowed(run);
        const own = record && !personHasIt ? { record, step: step! } : null;
        return { result: { text: '', isError: false }, tests: { own, feedback, at } };
      }
      result = { text: await this.run(tool, args, run, arrival), isError: false };
    } catch (e) {
      result = errorResult(e);
    }
    if (record && !personHasIt) this.finishCall(record, step!, name, rawArgs, result, at);
    return { result };
  }

  /**
   * The run's stored feedback level (a flag or a setting put it there), never looser than a
   * study's rule: neither `--feedback full` nor a participant's setting opens hidden tests.
   */
  private feedback(state: RunState): AgentFeedback {
    const asked = loadAgentSettings(this.workspace.store.root, state.runId).feedback;
    return agentFeedbackFor(runDisclosure(this.workspace.store.root, state).disclosure, asked);
  }

  /** The run's feedback level when run_tests may answer, else the refusal. */
  private testsAllowed(run: { state: RunState }): 'summary' | 'full' {
    const feedback = this.feedback(run.state);
    const refusal = refuseTestsReason(feedback);
    if (refusal) throw new UserError(refusal, 'state');
    if (run.state.currentStep === null)
      throw new UserError(`run ${run.state.runId} is complete: there is no step to test`, 'state');
    return feedback as 'summary' | 'full';
  }

  private async run(
    tool: AgentToolDefinition,
    args: Record<string, unknown>,
    run: { state: RunState; chain: Chain },
    arrival: Arrival,
  ): Promise<string> {
    const ws = this.workspace;
    const feedback = this.feedback(run.state);
    switch (tool.name) {
      case 'get_current_step':
        return json(currentStepView(run.state, run.chain, ws.dir, feedback));
      case 'get_run_status':
        return json(runStatusView(run.state));
      case 'run_tests':
        throw new Error('run_tests is answered outside the lock (callNow)');
      case 'submit_step':
        return json(
          await this.submit(
            run.state,
            args.step as number | undefined,
            args.summary as string | undefined,
            arrival,
            args.allow_empty === true,
          ),
        );
    }
  }

  private async submit(
    state: RunState,
    expected: number | undefined,
    summary: string | undefined,
    arrival: Arrival,
    allowEmpty: boolean,
  ) {
    const step = currentStepOf(state);
    if (!step) throw new UserError(`run ${state.runId} is complete: every step has been submitted`, 'state');
    // A repeated submit_step (a client retrying, two calls sent at once) must not submit the
    // next step, empty, in the agent's name.
    if (arrival.duplicateSubmit)
      throw new UserError(
        `another submit_step was still in progress when this one was made; nothing was submitted (the run is on step ${step.order} now: call get_current_step)`,
        'state',
      );
    if (step.startedAt && Date.parse(step.startedAt) >= arrival.at)
      throw new UserError(
        `step ${step.order} started after this submit_step was made (an earlier submit finished first); nothing was submitted: call get_current_step`,
        'state',
      );
    if (expected !== undefined && expected !== step.order)
      throw new UserError(
        `you asked to submit step ${expected}, but the run is on step ${step.order}; nothing was submitted`,
        'state',
      );
    const {
      state: after,
      notes,
      submitted,
    } = await this.workspace.engine.submit({
      step: step.order,
      allowEmpty,
      emptyHint: 'call submit_step with allow_empty: true to submit it empty on purpose',
    });
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
    const refusal = agentRefusal(runDisclosure(this.workspace.store.root, state).disclosure, state);
    if (refusal) throw new UserError(refusal, 'state');
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
  const { evaluateStep } = await import('../evaluation/evaluateStep');
  return evaluateStep({ dir: ws.dir, source: 'worktree', workspace: ws, signal });
}
