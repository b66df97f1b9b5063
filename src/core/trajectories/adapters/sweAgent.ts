import type { ModelStats, ToolCall, Trajectory, TrajectoryProblem } from '../../../protocol/trajectory';
import type { JsonPathKey } from '../json/jsonSplitter';
import { rootFromWorkingDir } from '../interpret/repoPaths';
import { isRecord, SourceReader, type JsonRecord } from '../sourceReader';
import { finishTrajectory, instanceIdFromFileName, type StepDraft } from './draft';

/**
 * SWE-agent `.traj` files: v0 (state as a JSON string, text commands), v1 (state object, tool
 * calls in history, replay_config) and retry files (`attempts`, one trajectory each, the chosen
 * one flagged).
 */
export function sweAgentTrajectories(doc: unknown, file: string, problems: TrajectoryProblem[]): Trajectory[] {
  const reader = new SourceReader(file, problems);
  if (!isRecord(doc)) {
    reader.report('error', 'a SWE-agent .traj file holds a JSON object', []);
    return [];
  }
  const attempts = reader.array(doc, 'attempts', []);
  if (attempts) {
    const info = isRecord(doc.info) ? doc.info : {};
    const best = typeof info.best_attempt_idx === 'number' ? info.best_attempt_idx : null;
    const out: Trajectory[] = [];
    attempts.forEach((a, k) => {
      const rec = reader.element(a, ['attempts', k], 'an attempt');
      if (rec)
        out.push(readAttempt(rec, ['attempts', k], file, { index: k, count: attempts.length, chosen: best === k }));
    });
    if (attempts.length === 0 && Array.isArray(doc.trajectory)) out.push(readAttempt(doc, [], file, null));
    return out;
  }
  return [readAttempt(doc, [], file, null)];
}

function readAttempt(doc: JsonRecord, at: JsonPathKey[], file: string, attempt: Trajectory['attempt']): Trajectory {
  const problems: TrajectoryProblem[] = [];
  const r = new SourceReader(file, problems);
  const history = r.array(doc, 'history', at) ?? [];
  // Demonstration files (trajectories/demonstrations/*.traj) hold only the history: read the steps from it.
  const fromHistory = doc.trajectory === undefined && Array.isArray(doc.history);
  const entries = fromHistory ? stepsFromHistory(history) : (r.array(doc, 'trajectory', at, { required: true }) ?? []);
  const info = r.record(doc, 'info', at) ?? {};
  const replay = readReplayConfig(doc.replay_config, [...at, 'replay_config'], r);

  let sawStringState = false;
  let sawObjectState = false;
  let workingDir: string | null = null;
  const toolCalls = toolCallsByAction(history, [...at, 'history'], r);
  const steps: StepDraft[] = [];
  entries.forEach((e, k) => {
    const path = fromHistory ? [...at, 'history', (e as HistoryStep).historyIndex] : [...at, 'trajectory', k];
    const entry = r.element(e, path, 'a trajectory step');
    if (!entry) return;
    const action = r.string(entry, 'action', path, { required: true }) ?? '';
    const state = readState(entry.state, [...path, 'state'], r);
    if (typeof entry.state === 'string') sawStringState = true;
    else if (isRecord(entry.state)) sawObjectState = true;
    workingDir ??= typeof state?.working_dir === 'string' ? state.working_dir : null;
    const tool = toolCalls.get(action.trim())?.shift();
    const thought = r.string(entry, 'thought', path) ?? r.string(entry, 'response', path) ?? '';
    steps.push({
      thought,
      action,
      ...(tool ? { tool } : {}),
      observation: r.string(entry, 'observation', path) ?? '',
      exitCode: null,
      executionTimeSec: r.number(entry, 'execution_time', path) ?? null,
      origin: r.position(path),
      ...(typeof state?.diff === 'string' ? { recordedPatch: state.diff } : {}),
    });
  });

  const isV1 = sawObjectState || replay !== null || history.some((h) => isRecord(h) && 'message_type' in h);
  const version = isV1 && !sawStringState ? 'v1' : 'v0';
  const env = isRecord(replay?.env) ? replay.env : {};
  const repo = isRecord(env.repo) ? env.repo : {};
  const deployment = isRecord(env.deployment) ? env.deployment : {};
  const agent = isRecord(replay?.agent) ? replay.agent : {};
  const model = isRecord(agent.model) && typeof agent.model.name === 'string' ? agent.model.name : null;
  const ps = isRecord(replay?.problem_statement) ? replay.problem_statement : {};
  const root = rootFromWorkingDir(workingDir) ?? (typeof repo.repo_name === 'string' ? `/${repo.repo_name}` : null);
  const submission = r.patch(info, 'submission', [...at, 'info']);

  return finishTrajectory({
    source: { format: 'swe-agent', version: attempt ? `${version}-retry` : version, file },
    workspaceRoot: root,
    instanceId: (typeof ps.id === 'string' ? ps.id : null) ?? instanceIdFromFileName(file),
    model,
    exitStatus: r.string(info, 'exit_status', [...at, 'info']) ?? null,
    submission,
    modelStats: readStats(r.record(info, 'model_stats', [...at, 'info'])),
    problemStatement: typeof ps.text === 'string' ? ps.text : issueFromHistory(history),
    image: typeof deployment.image === 'string' ? deployment.image : null,
    attempt,
    steps,
    problems,
  });
}

/** A step read from a history: its assistant message, and where that message is (for messages). */
interface HistoryStep extends JsonRecord {
  readonly historyIndex: number;
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/**
 * Steps of a history-only file, in the shape of `trajectory` entries: each assistant message with
 * an action (demonstration turns of a real run excluded), its thought, and as observation the
 * tool/user messages that answer it up to the next assistant message.
 */
function stepsFromHistory(history: unknown[]): HistoryStep[] {
  const steps: HistoryStep[] = [];
  history.forEach((h, k) => {
    if (!isRecord(h) || h.is_demo === true) return;
    if (h.role === 'assistant' && typeof h.action === 'string') {
      steps.push({
        historyIndex: k,
        action: h.action,
        thought: typeof h.thought === 'string' ? h.thought : messageText(h.content),
        observation: '',
      });
      return;
    }
    const last = steps[steps.length - 1];
    if (last && (h.role === 'tool' || h.role === 'user')) {
      const text = messageText(h.content);
      last.observation = last.observation ? `${String(last.observation)}\n${text}` : text;
    }
  });
  return steps;
}

/** `replay_config` is an object in some files and a JSON string (model_dump_json) in others. */
function readReplayConfig(value: unknown, path: JsonPathKey[], r: SourceReader): JsonRecord | null {
  if (value === undefined || value === null) return null;
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isRecord(parsed)) return parsed;
    } catch {
      // reported below
    }
    r.report('warning', 'replay_config is a string that is not a JSON object; model and image unknown', path);
    return null;
  }
  r.report('warning', 'replay_config should be an object or a JSON string', path);
  return null;
}

/** v0 keeps state as a JSON string, v1 as an object. */
function readState(value: unknown, path: JsonPathKey[], r: SourceReader): JsonRecord | null {
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    try {
      const parsed: unknown = JSON.parse(value);
      if (isRecord(parsed)) return parsed;
    } catch {
      // reported below
    }
    r.report('warning', 'state is a string that is not JSON', path);
  }
  return null;
}

/**
 * Tool calls of the assistant messages in `history`, keyed by the action text they produced, so
 * each trajectory step finds its call (demonstrations excluded). Call ids repeat in real files,
 * so matching is by action, in order.
 */
function toolCallsByAction(history: unknown[], at: JsonPathKey[], r: SourceReader): Map<string, ToolCall[]> {
  const out = new Map<string, ToolCall[]>();
  history.forEach((h, k) => {
    if (!isRecord(h) || h.role !== 'assistant' || h.is_demo === true || typeof h.action !== 'string') return;
    const calls = Array.isArray(h.tool_calls) ? h.tool_calls : [];
    const first = calls[0];
    if (!isRecord(first)) return;
    const fn = isRecord(first.function) ? first.function : {};
    const name = typeof fn.name === 'string' ? fn.name : null;
    if (!name) return;
    let args: Record<string, unknown> = {};
    if (typeof fn.arguments === 'string') {
      try {
        const parsed: unknown = JSON.parse(fn.arguments);
        if (isRecord(parsed)) args = parsed;
      } catch {
        r.report('warning', 'tool call arguments are not valid JSON', [
          ...at,
          k,
          'tool_calls',
          0,
          'function',
          'arguments',
        ]);
      }
    } else if (isRecord(fn.arguments)) args = fn.arguments;
    const key = h.action.trim();
    const list = out.get(key) ?? [];
    list.push({ name, args, ...(typeof first.id === 'string' ? { id: first.id } : {}) });
    out.set(key, list);
  });
  return out;
}

function readStats(stats: JsonRecord | undefined): ModelStats | null {
  if (!stats) return null;
  const n = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    costUsd: n(stats.instance_cost) ?? n(stats.total_cost),
    tokensSent: n(stats.tokens_sent),
    tokensReceived: n(stats.tokens_received),
    apiCalls: n(stats.api_calls),
    raw: stats,
  };
}

/** v0 files carry the issue only inside the first (non-demo) user message. */
function issueFromHistory(history: unknown[]): string | null {
  for (const h of history) {
    if (!isRecord(h) || h.role !== 'user' || h.is_demo === true || typeof h.content !== 'string') continue;
    const m = /ISSUE:\n([\s\S]*?)\n+INSTRUCTIONS:/.exec(h.content);
    if (m) return m[1];
  }
  return null;
}
