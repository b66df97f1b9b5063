import type { ModelStats, ToolCall, Trajectory, TrajectoryProblem } from '../../../protocol/trajectory';
import type { JsonPathKey } from '../json/jsonSplitter';
import { parseMiniObservation } from '../interpret/observationText';
import { isRecord, SourceReader, type JsonRecord } from '../sourceReader';
import { finishTrajectory, instanceIdFromFileName, type StepDraft } from './draft';

const FENCED_ACTION = /```(?:mswea_bash_command|bash|sh|shell)?[ \t]*\r?\n([\s\S]*?)\r?\n```/g;
const SUBMIT_MARKER = /\b(COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\b/;

/**
 * mini-swe-agent trajectories: the 1.1 format (`trajectory_format`, `info`, `messages` with
 * `extra.actions` or fenced bash blocks, observations with <returncode>/<output>, a final `exit`
 * message) and the legacy bare list of `{role, content}`.
 */
export function miniSweAgentTrajectory(doc: unknown, file: string, problems: TrajectoryProblem[]): Trajectory | null {
  const r = new SourceReader(file, problems);
  let messages: unknown[];
  let info: JsonRecord = {};
  let version: string;
  let prefix: JsonPathKey[];
  let instanceId: string | null = null;
  if (Array.isArray(doc)) {
    messages = doc;
    version = 'legacy-list';
    prefix = [];
  } else if (isRecord(doc)) {
    messages = r.array(doc, 'messages', [], { required: true }) ?? [];
    info = r.record(doc, 'info', []) ?? {};
    version =
      typeof doc.trajectory_format === 'string' ? doc.trajectory_format.replace(/^mini-swe-agent-/, '') : 'unknown';
    prefix = ['messages'];
    instanceId = typeof doc.instance_id === 'string' ? doc.instance_id : null;
  } else {
    r.report('error', 'a mini-swe-agent trajectory is a JSON object or a list of messages', []);
    return null;
  }

  const msgs: { rec: JsonRecord; path: JsonPathKey[] }[] = [];
  messages.forEach((m, k) => {
    const rec = r.element(m, [...prefix, k], 'a message');
    if (rec) msgs.push({ rec, path: [...prefix, k] });
  });

  const steps: StepDraft[] = [];
  let problemStatement: string | null = null;
  let exitStatus: string | null = r.string(info, 'exit_status', ['info']) ?? null;
  let submission: string | null = r.patch(info, 'submission', ['info']);
  let k = 0;
  while (k < msgs.length) {
    const { rec, path } = msgs[k];
    const role = r.string(rec, 'role', path) ?? '';
    const extra = isRecord(rec.extra) ? rec.extra : {};
    if (role === 'exit') {
      exitStatus = (typeof extra.exit_status === 'string' ? extra.exit_status : null) ?? exitStatus;
      submission = (typeof extra.submission === 'string' ? extra.submission : null) ?? submission;
      k++;
      continue;
    }
    if (role !== 'assistant') {
      if (role === 'user' && problemStatement === null && steps.length === 0)
        problemStatement = taskFrom(textOf(rec.content));
      k++;
      continue;
    }
    const content = textOf(rec.content);
    const actions = actionsOf(rec, content);
    // observations: the user/tool messages up to the next assistant message
    const observations: { rec: JsonRecord; path: JsonPathKey[] }[] = [];
    let j = k + 1;
    while (j < msgs.length && msgs[j].rec.role !== 'assistant' && msgs[j].rec.role !== 'exit')
      observations.push(msgs[j++]);
    const thought = content.replace(FENCED_ACTION, '').trim();
    const stamp = typeof extra.timestamp === 'number' ? new Date(extra.timestamp * 1000).toISOString() : undefined;
    if (actions.length === 0) {
      steps.push({
        thought,
        action: '',
        observation: observations.map((o) => textOf(o.rec.content)).join('\n'),
        exitCode: null,
        executionTimeSec: null,
        ...(stamp ? { timestamp: stamp } : {}),
        origin: r.position(path),
      });
    }
    actions.forEach((a, n) => {
      const obs =
        (a.toolCallId ? observations.find((o) => o.rec.tool_call_id === a.toolCallId) : undefined) ?? observations[n];
      const obsText = obs ? textOf(obs.rec.content) : '';
      const obsExtra = obs && isRecord(obs.rec.extra) ? obs.rec.extra : {};
      const exitCode =
        typeof obsExtra.returncode === 'number'
          ? obsExtra.returncode
          : (parseMiniObservation(obsText)?.exitCode ?? null);
      steps.push({
        thought: n === 0 ? thought : '',
        action: a.command,
        ...(a.tool ? { tool: a.tool } : {}),
        observation: obsText,
        exitCode,
        executionTimeSec: null,
        ...(stamp ? { timestamp: stamp } : {}),
        origin: r.position(path),
      });
    });
    // legacy runs end with the submit command's output as a bare user message: that is the submission
    const last = steps.at(-1);
    if (last && SUBMIT_MARKER.test(last.action) && !/<returncode>/.test(last.observation) && observations.length) {
      submission ??= last.observation;
      exitStatus ??= 'Submitted';
    }
    k = j;
  }

  const config = isRecord(info.config) ? info.config : {};
  const modelCfg = isRecord(config.model) ? config.model : {};
  const envCfg = isRecord(config.environment) ? config.environment : {};
  const usesTestbed = steps.some((s) => s.action.includes('/testbed'));
  return finishTrajectory({
    source: { format: 'mini-swe-agent', version, file },
    workspaceRoot:
      typeof envCfg.cwd === 'string' && envCfg.cwd.startsWith('/') ? envCfg.cwd : usesTestbed ? '/testbed' : null,
    instanceId: instanceId ?? instanceIdFromFileName(file),
    model: typeof modelCfg.model_name === 'string' ? modelCfg.model_name : null,
    exitStatus,
    submission,
    modelStats: stats(isRecord(info.model_stats) ? info.model_stats : null),
    problemStatement,
    image: typeof envCfg.image === 'string' ? envCfg.image : null,
    attempt: null,
    steps,
    problems: [],
  });
}

interface MiniAction {
  command: string;
  tool?: ToolCall;
  toolCallId?: string;
}

/** `extra.actions` (v2), tool calls, or fenced bash blocks in the text (v1 and legacy). */
function actionsOf(rec: JsonRecord, content: string): MiniAction[] {
  const extra = isRecord(rec.extra) ? rec.extra : {};
  if (Array.isArray(extra.actions)) {
    return extra.actions.filter(isRecord).flatMap((a) => {
      if (typeof a.command !== 'string') return [];
      const id = typeof a.tool_call_id === 'string' ? a.tool_call_id : undefined;
      return [
        {
          command: a.command,
          ...(id ? { toolCallId: id, tool: { name: 'bash', args: { command: a.command }, id } } : {}),
        },
      ];
    });
  }
  if (Array.isArray(rec.tool_calls)) {
    return rec.tool_calls.filter(isRecord).flatMap((tc) => {
      const fn = isRecord(tc.function) ? tc.function : {};
      let args: Record<string, unknown> = {};
      try {
        const parsed: unknown = typeof fn.arguments === 'string' ? JSON.parse(fn.arguments) : fn.arguments;
        if (isRecord(parsed)) args = parsed;
      } catch {
        // unreadable arguments: the call still shows, without a command
      }
      const id = typeof tc.id === 'string' ? tc.id : undefined;
      const name = typeof fn.name === 'string' ? fn.name : 'bash';
      return [
        {
          command: typeof args.command === 'string' ? args.command : '',
          tool: { name, args, ...(id ? { id } : {}) },
          ...(id ? { toolCallId: id } : {}),
        },
      ];
    });
  }
  return [...content.matchAll(FENCED_ACTION)].map((m) => ({ command: m[1] }));
}

/** Message content as text (strings, or OpenAI content parts). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
  return '';
}

function taskFrom(text: string): string {
  const m = /Please solve this issue: ([\s\S]*?)(\n\nYou can execute bash commands|$)/.exec(text);
  return m ? m[1] : text;
}

function stats(s: JsonRecord | null): ModelStats | null {
  if (!s) return null;
  return {
    costUsd: typeof s.instance_cost === 'number' ? s.instance_cost : null,
    tokensSent: null,
    tokensReceived: null,
    apiCalls: typeof s.api_calls === 'number' ? s.api_calls : null,
    raw: s,
  };
}
