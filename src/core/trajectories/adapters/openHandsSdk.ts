import type { ModelStats, SourcePosition, ToolCall, Trajectory, TrajectoryProblem } from '../../../protocol/trajectory';
import type { JsonPathKey } from '../json/jsonSplitter';
import { isRecord, SourceReader, type JsonRecord } from '../sourceReader';
import { finishTrajectory, type StepDraft } from './draft';
import { parseTime, renderEditor, workspaceRootFrom, type EventSteps } from './openHandsEvents';

/** SDK event kinds that are not steps of the agent (bookkeeping, streaming, logs). */
const NON_STEP_KINDS = new Set([
  'SystemPromptEvent',
  'ConversationStateUpdateEvent',
  'Condensation',
  'CondensationRequest',
  'CondensationSummaryEvent',
  'PauseEvent',
  'LLMCompletionLogEvent',
  'ConversationErrorEvent',
  'HookExecutionEvent',
  'TokenEvent',
  'StreamingDeltaEvent',
  'ResumeTranscriptEvent',
  'UserActionEvent',
]);

/**
 * OpenHands SDK (V1) events, `kind`-tagged: ActionEvent + ObservationEvent (paired by action_id,
 * or tool_call_id), AgentErrorEvent, UserRejectObservation, MessageEvent. `at(k)` gives the
 * position of event k (a JSON path inside a history list, or a JSONL line).
 */
export function openHandsSdkSteps(
  events: unknown[],
  at: JsonPathKey[],
  r: SourceReader,
  lineOf?: (k: number) => Pick<SourcePosition, 'line' | 'byteOffset'>,
): EventSteps {
  const steps: StepDraft[] = [];
  const byAction = new Map<string, StepDraft>();
  const byCall = new Map<string, StepDraft>();
  let exitStatus: string | null = null;
  let model: string | null = null;
  let stats: ModelStats | null = null;
  let task: string | null = null;
  const times = new Map<StepDraft, number>();
  events.forEach((raw, k) => {
    const path = lineOf ? [] : [...at, k];
    const where = lineOf ? new SourceReader(r.file, r.problems, lineOf(k)) : r;
    const ev = where.element(raw, path, 'an event');
    if (!ev) return;
    const kind = typeof ev.kind === 'string' ? ev.kind : null;
    const origin = where.position(path);
    switch (kind) {
      case 'ActionEvent': {
        const step = actionStep(ev, origin);
        steps.push(step);
        if (typeof ev.id === 'string') byAction.set(ev.id, step);
        if (step.tool?.id) byCall.set(step.tool.id, step);
        const t = parseTime(ev.timestamp);
        if (t !== null) times.set(step, t);
        if (step.tool?.name === 'finish') exitStatus = 'finished';
        return;
      }
      case 'ObservationEvent':
      case 'AgentErrorEvent':
      case 'UserRejectObservation': {
        const step =
          (typeof ev.action_id === 'string' ? byAction.get(ev.action_id) : undefined) ??
          (typeof ev.tool_call_id === 'string' ? byCall.get(ev.tool_call_id) : undefined);
        if (!step) {
          where.report('warning', `${kind} answers an action that is not in the file; skipped`, path);
          return;
        }
        const obs = isRecord(ev.observation) ? ev.observation : {};
        const text =
          kind === 'AgentErrorEvent'
            ? String(ev.error ?? '')
            : kind === 'UserRejectObservation'
              ? `Action rejected: ${String(ev.rejection_reason ?? '')}`
              : contentText(obs.content);
        step.observation = step.observation ? `${step.observation}\n${text}` : text;
        const meta = isRecord(obs.metadata) ? obs.metadata : {};
        const code =
          typeof obs.exit_code === 'number'
            ? obs.exit_code
            : typeof meta.exit_code === 'number'
              ? meta.exit_code
              : null;
        if (code !== null && code >= 0) step.exitCode = code;
        // no recorded duration: the time from the action to its observation stands in
        const t = parseTime(ev.timestamp);
        const t0 = times.get(step);
        if (t !== null && t0 !== undefined && step.executionTimeSec === null)
          step.executionTimeSec = Math.max(0, (t - t0) / 1000);
        return;
      }
      case 'MessageEvent': {
        const msg = isRecord(ev.llm_message) ? ev.llm_message : {};
        const text = contentText(msg.content);
        if (ev.source === 'user') {
          task ??= text;
          return;
        }
        steps.push({
          thought: text,
          action: '',
          observation: '',
          exitCode: null,
          executionTimeSec: null,
          origin,
          ...(typeof ev.timestamp === 'string' ? { timestamp: ev.timestamp } : {}),
        });
        return;
      }
      case 'ConversationStateUpdateEvent': {
        if (ev.key === 'execution_status' && typeof ev.value === 'string') exitStatus = ev.value;
        if (ev.key === 'stats' && isRecord(ev.value)) {
          const read = statsFrom(ev.value);
          if (read) ({ model, stats } = read);
        }
        return;
      }
      case 'ConversationErrorEvent':
        exitStatus = `error: ${String(ev.detail ?? ev.code ?? 'conversation error')}`;
        return;
      default:
        if (kind && NON_STEP_KINDS.has(kind)) return;
        where.report(
          'warning',
          kind ? `unknown OpenHands event kind "${kind}"; skipped` : 'event without a "kind"; skipped',
          lineOf ? [] : [...path, 'kind'],
        );
    }
  });
  return { steps, exitStatus, model, stats, task };
}

function actionStep(ev: JsonRecord, origin: SourcePosition): StepDraft {
  const action = isRecord(ev.action) ? ev.action : {};
  const call = isRecord(ev.tool_call) ? ev.tool_call : {};
  const name =
    typeof ev.tool_name === 'string'
      ? ev.tool_name
      : typeof call.name === 'string'
        ? call.name
        : String(action.kind ?? 'action');
  let args: Record<string, unknown> = {};
  if (typeof call.arguments === 'string') {
    try {
      const parsed: unknown = JSON.parse(call.arguments);
      if (isRecord(parsed)) args = parsed;
    } catch {
      // fall back to the action's own fields below
    }
  }
  for (const [k, v] of Object.entries(action)) if (k !== 'kind' && v !== null && !(k in args)) args[k] = v;
  const id = typeof ev.tool_call_id === 'string' ? ev.tool_call_id : undefined;
  const tool: ToolCall = { name, args, ...(id ? { id } : {}) };
  const thoughtParts = Array.isArray(ev.thought)
    ? contentText(ev.thought)
    : typeof ev.thought === 'string'
      ? ev.thought
      : '';
  const reasoning = typeof ev.reasoning_content === 'string' ? ev.reasoning_content : '';
  const kind = typeof action.kind === 'string' ? action.kind : '';
  let text: string;
  if (typeof args.command === 'string' && !('path' in args)) text = args.command;
  else if (typeof args.path === 'string' && typeof args.command === 'string') text = renderEditor(name, args);
  else if (kind === 'FinishAction') text = 'finish';
  else if (kind === 'ThinkAction') text = '';
  else text = `${name} ${JSON.stringify(args)}`;
  const thought =
    kind === 'ThinkAction' && typeof action.thought === 'string' ? action.thought : thoughtParts || reasoning;
  return {
    thought:
      kind === 'FinishAction' && typeof action.message === 'string'
        ? [thought, action.message].filter(Boolean).join('\n\n')
        : thought,
    action: text,
    tool:
      kind === 'ThinkAction'
        ? { ...tool, name: 'think' }
        : kind === 'FinishAction'
          ? { ...tool, name: 'finish' }
          : tool,
    observation: '',
    exitCode: null,
    executionTimeSec: null,
    origin,
    ...(typeof ev.timestamp === 'string' ? { timestamp: ev.timestamp } : {}),
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : '')).join('');
  return '';
}

function statsFrom(value: JsonRecord): { model: string | null; stats: ModelStats } | null {
  const usage = isRecord(value.usage_to_metrics) ? value.usage_to_metrics : null;
  const main = usage && isRecord(usage.default) ? usage.default : null;
  if (!main) return null;
  const tokens = isRecord(main.accumulated_token_usage) ? main.accumulated_token_usage : {};
  return {
    model: typeof main.model_name === 'string' ? main.model_name : null,
    stats: {
      costUsd: typeof main.accumulated_cost === 'number' ? main.accumulated_cost : null,
      tokensSent: typeof tokens.prompt_tokens === 'number' ? tokens.prompt_tokens : null,
      tokensReceived: typeof tokens.completion_tokens === 'number' ? tokens.completion_tokens : null,
      apiCalls: null,
      raw: value,
    },
  };
}

/**
 * A conversation's events stored one per JSONL line (or as a JSON list): one trajectory.
 * `lines[k]` says where event k sat in the file.
 */
export function openHandsEventLog(
  events: unknown[],
  file: string,
  lines?: Pick<SourcePosition, 'line' | 'byteOffset'>[],
): Trajectory {
  const own: TrajectoryProblem[] = [];
  const r = new SourceReader(file, own);
  const read = openHandsSdkSteps(events, [], r, lines ? (k) => lines[k] : undefined);
  return finishTrajectory({
    source: { format: 'openhands', version: 'v1-events', file },
    workspaceRoot: workspaceRootFrom(read.task ?? '') ?? rootFromCommands(read.steps),
    instanceId: null,
    model: read.model,
    exitStatus: read.exitStatus,
    submission: null,
    modelStats: read.stats,
    problemStatement: read.task,
    image: null,
    attempt: null,
    steps: read.steps,
    problems: own,
  });
}

/** SDK conversations usually work in /workspace/project; take it from the first `cd`. */
function rootFromCommands(steps: StepDraft[]): string | null {
  for (const s of steps) {
    const m = /(?:^|&&\s*|;\s*)cd\s+(\/[^\s;&|]+)/.exec(s.action);
    if (m) return m[1].replace(/\/$/, '');
  }
  return null;
}
