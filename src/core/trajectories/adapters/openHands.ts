import type { ModelStats, SourcePosition, ToolCall, Trajectory, TrajectoryProblem } from '../../../protocol/trajectory';
import type { JsonPathKey } from '../json/jsonSplitter';
import { isRecord, SourceReader, type JsonRecord } from '../sourceReader';
import { finishTrajectory, type StepDraft } from './draft';
import { openHandsSdkSteps } from './openHandsSdk';
import { parseTime, renderEditor, workspaceRootFrom, type EventSteps } from './openHandsEvents';

/** V0 actions that are bookkeeping, not something the agent did. */
const SKIPPED_ACTIONS = new Set([
  'system',
  'recall',
  'change_agent_state',
  'condensation',
  'condensation_request',
  'null',
  'pause',
  'resume',
]);
const KNOWN_ACTIONS = new Set([
  'run',
  'run_ipython',
  'read',
  'edit',
  'write',
  'browse',
  'browse_interactive',
  'think',
  'finish',
  'message',
  'delegate',
  'reject',
  'mcp',
  'task_tracking',
  'call_tool_mcp',
  'recall',
]);

/**
 * One line of an OpenHands evaluation `output.jsonl`: instance fields plus `history`, a list of
 * events. V0 events carry `action`+`args` or `observation`+`content`+`extras` (paired to their
 * action by `cause`); SDK V1 events carry `kind` and are read by openHandsSdkSteps.
 */
export function openHandsInstance(
  doc: unknown,
  file: string,
  problems: TrajectoryProblem[],
  at: Pick<SourcePosition, 'line' | 'byteOffset'> = {},
): Trajectory | null {
  const fileReader = new SourceReader(file, problems, at);
  const rec = fileReader.element(doc, [], 'an OpenHands output line');
  if (!rec) return null;
  const own: TrajectoryProblem[] = [];
  const r = new SourceReader(file, own, at);
  const history = r.array(rec, 'history', [], { required: true }) ?? [];
  const instance = r.record(rec, 'instance', []) ?? {};
  const metadata = r.record(rec, 'metadata', []) ?? {};
  const testResult = rec.test_result;
  const instruction = r.string(rec, 'instruction', []) ?? null;
  const isSdk = history.some((e) => isRecord(e) && typeof e.kind === 'string');

  const read = isSdk ? openHandsSdkSteps(history, ['history'], r) : v0Steps(history, ['history'], r);
  const llm = isRecord(metadata.llm_config) ? metadata.llm_config : {};
  const error = typeof rec.error === 'string' && rec.error ? rec.error : null;
  const submission =
    isRecord(testResult) && typeof testResult.git_patch === 'string'
      ? testResult.git_patch
      : typeof rec.git_patch === 'string'
        ? rec.git_patch
        : null;
  return finishTrajectory({
    source: {
      format: 'openhands',
      version: isSdk ? 'v1-events' : 'v0-events',
      file,
      ...(at.line !== undefined ? { line: at.line } : {}),
    },
    workspaceRoot: workspaceRootFrom(instruction ?? ''),
    instanceId:
      r.string(rec, 'instance_id', []) ?? (typeof instance.instance_id === 'string' ? instance.instance_id : null),
    model: (typeof llm.model === 'string' ? llm.model : null) ?? read.model,
    exitStatus: error ? `error: ${error}` : read.exitStatus,
    submission,
    modelStats: openHandsStats(isRecord(rec.metrics) ? rec.metrics : null) ?? read.stats,
    problemStatement:
      typeof instance.problem_statement === 'string' ? instance.problem_statement : (instruction ?? read.task),
    image: typeof instance.image === 'string' ? instance.image : null,
    attempt: null,
    steps: read.steps,
    problems: own,
  });
}

/** V0 events: one step per agent action, its observation found through `cause`. */
export function v0Steps(events: unknown[], at: JsonPathKey[], r: SourceReader): EventSteps {
  const steps: StepDraft[] = [];
  const byId = new Map<string, { step: StepDraft; time: number | null }>();
  let exitStatus: string | null = null;
  let task: string | null = null;
  let lastAction: { step: StepDraft; time: number | null; answered: boolean } | null = null;
  events.forEach((raw, k) => {
    const path = [...at, k];
    // very old files keep [action, observation] pairs
    const pair = Array.isArray(raw) && raw.length === 2 ? raw : null;
    for (const e of pair ?? [raw]) {
      const ev = r.element(e, path, 'an event');
      if (!ev) continue;
      if (typeof ev.action === 'string') {
        const args = isRecord(ev.args) ? ev.args : ev;
        if (ev.source === 'user') {
          if (ev.action === 'message' && task === null) task = typeof args.content === 'string' ? args.content : null;
          continue;
        }
        if (SKIPPED_ACTIONS.has(ev.action)) continue;
        if (!KNOWN_ACTIONS.has(ev.action))
          r.report('warning', `unknown OpenHands action "${ev.action}"; shown as a plain step`, [...path, 'action']);
        const step = actionStep(ev, args, path, r);
        steps.push(step);
        const time = parseTime(ev.timestamp);
        lastAction = { step, time, answered: false };
        if (ev.id !== undefined && ev.id !== null) byId.set(String(ev.id), { step, time });
        if (ev.action === 'finish') exitStatus = 'finished';
        continue;
      }
      if (typeof ev.observation === 'string') {
        const cause = ev.cause !== undefined && ev.cause !== null ? byId.get(String(ev.cause)) : undefined;
        const extras = isRecord(ev.extras) ? ev.extras : ev;
        if (ev.observation === 'agent_state_changed') {
          if (typeof extras.agent_state === 'string') exitStatus = extras.agent_state;
          continue;
        }
        const content = typeof ev.content === 'string' ? ev.content : typeof ev.message === 'string' ? ev.message : '';
        const target =
          cause ??
          (pair || ev.cause === undefined || ev.cause === null
            ? lastAction && !lastAction.answered
              ? lastAction
              : null
            : null);
        if (!target) {
          if (ev.observation === 'error' && steps.length) {
            // an error the environment raised without naming the action: the agent saw it after its last step
            const prev = steps[steps.length - 1];
            prev.observation = prev.observation ? `${prev.observation}\n${content}` : content;
          }
          continue;
        }
        target.step.observation = target.step.observation ? `${target.step.observation}\n${content}` : content;
        const meta = isRecord(extras.metadata) ? extras.metadata : {};
        const code =
          typeof meta.exit_code === 'number'
            ? meta.exit_code
            : typeof extras.exit_code === 'number'
              ? extras.exit_code
              : null;
        if (code !== null && code >= 0) target.step.exitCode = code;
        // OpenHands records no duration: the time from the action to its observation stands in
        const t = parseTime(ev.timestamp);
        if (t !== null && target.time !== null && target.step.executionTimeSec === null)
          target.step.executionTimeSec = Math.max(0, (t - target.time) / 1000);
        if (lastAction && target.step === lastAction.step) lastAction.answered = true;
        continue;
      }
      r.report('warning', 'event is neither an action nor an observation; skipped', path);
    }
  });
  return { steps, exitStatus, model: null, stats: null, task };
}

function actionStep(ev: JsonRecord, args: JsonRecord, path: JsonPathKey[], r: SourceReader): StepDraft {
  const meta = isRecord(ev.tool_call_metadata) ? ev.tool_call_metadata : {};
  const fn = typeof meta.function_name === 'string' ? meta.function_name : null;
  const id = typeof meta.tool_call_id === 'string' ? meta.tool_call_id : undefined;
  const thought = typeof args.thought === 'string' ? args.thought : '';
  // one literal shape for every step (a 100 MB output.jsonl has tens of thousands of them)
  const timestamp = typeof ev.timestamp === 'string' ? ev.timestamp : undefined;
  const origin = r.position(path);
  const step = (thought: string, action: string, tool?: ToolCall): StepDraft => ({
    thought,
    action,
    tool,
    observation: '',
    exitCode: null,
    executionTimeSec: null,
    timestamp,
    origin,
  });
  const tool = (name: string, a: Record<string, unknown>): ToolCall => (id ? { name, args: a, id } : { name, args: a });
  switch (ev.action) {
    case 'run': {
      const command = typeof args.command === 'string' ? args.command : '';
      return step(thought, command, tool(fn ?? 'execute_bash', { command }));
    }
    case 'run_ipython': {
      const code = typeof args.code === 'string' ? args.code : '';
      return step(thought, code, tool(fn ?? 'execute_ipython_cell', { code }));
    }
    case 'read':
    case 'edit': {
      if (ev.action === 'edit' && args.impl_source === 'llm_based_edit') {
        return step(
          thought,
          `edit_file ${String(args.path ?? '')}`,
          tool('edit_file', { path: args.path, content: args.content, start: args.start, end: args.end }),
        );
      }
      const a = editorArgs(ev.action, args);
      return step(thought, renderEditor(fn ?? 'str_replace_editor', a), tool(fn ?? 'str_replace_editor', a));
    }
    case 'write':
      return step(
        thought,
        `write ${String(args.path ?? '')}`,
        tool('write_file', { path: args.path, content: args.content }),
      );
    case 'think':
      return step(thought || String(args.thought ?? ''), '', tool('think', { thought: args.thought ?? '' }));
    case 'finish': {
      const final = typeof args.final_thought === 'string' ? args.final_thought : '';
      return step(
        [thought, final].filter(Boolean).join('\n\n') || String(ev.message ?? ''),
        'finish',
        tool('finish', args),
      );
    }
    case 'message':
      return step(typeof args.content === 'string' ? args.content : String(ev.message ?? ''), '');
    case 'browse':
    case 'browse_interactive': {
      const what =
        typeof args.url === 'string' ? args.url : typeof args.browser_actions === 'string' ? args.browser_actions : '';
      return step(thought, `${ev.action} ${what}`.trim(), tool(fn ?? 'browser', omit(args, ['thought'])));
    }
    default: {
      const name = fn ?? (typeof args.name === 'string' ? args.name : String(ev.action));
      const a = isRecord(args.arguments) ? args.arguments : omit(args, ['thought']);
      return step(thought, `${name} ${JSON.stringify(a)}`, tool(name, a));
    }
  }
}

/** The editor call behind a V0 read/edit action, in str_replace_editor's argument names. */
function editorArgs(action: string, args: JsonRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    command: action === 'read' ? 'view' : (args.command ?? 'str_replace'),
    path: args.path,
  };
  for (const k of ['file_text', 'old_str', 'new_str', 'insert_line', 'view_range'])
    if (args[k] !== null && args[k] !== undefined) out[k] = args[k];
  return out;
}

function omit(rec: JsonRecord, keys: string[]): JsonRecord {
  const out: JsonRecord = {};
  for (const [k, v] of Object.entries(rec)) if (!keys.includes(k)) out[k] = v;
  return out;
}

function openHandsStats(metrics: JsonRecord | null): ModelStats | null {
  if (!metrics) return null;
  const usage = isRecord(metrics.accumulated_token_usage) ? metrics.accumulated_token_usage : {};
  const calls = Array.isArray(metrics.response_latencies)
    ? metrics.response_latencies.length
    : Array.isArray(metrics.costs)
      ? metrics.costs.length
      : null;
  return {
    costUsd: typeof metrics.accumulated_cost === 'number' ? metrics.accumulated_cost : null,
    tokensSent: typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : null,
    tokensReceived: typeof usage.completion_tokens === 'number' ? usage.completion_tokens : null,
    apiCalls: calls,
    raw: metrics,
  };
}
