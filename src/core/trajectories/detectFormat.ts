import type { TrajectoryFormat } from '../../protocol/trajectory';

export interface TrajectoryDetection {
  format: TrajectoryFormat;
  /** One JSON document, or one JSON value per line. */
  container: 'json' | 'jsonl';
  /** JSONL only: each line is a whole trajectory (output.jsonl, predictions) or one event of a single conversation. */
  lines?: 'record-per-line' | 'event-per-line';
  /** Best guess from the first bytes; adapters confirm it from the whole document. */
  version: string | null;
  /** Why this format was chosen, for messages. */
  reason: string;
}

const SDK_EVENT =
  /"kind"\s*:\s*"(ActionEvent|ObservationEvent|MessageEvent|SystemPromptEvent|ConversationStateUpdateEvent|AgentErrorEvent|Condensation\w*|PauseEvent|UserRejectObservation|LLMCompletionLogEvent)"/;

/**
 * Which trajectory format a file holds, from its name and its first bytes (text or raw bytes;
 * 64 KiB is plenty, less works when the keys come early). Returns null when nothing fits.
 */
export function detectTrajectoryFormat(fileName: string, firstBytes: string | Uint8Array): TrajectoryDetection | null {
  const name = fileName.replace(/\\/g, '/').split('/').pop()?.toLowerCase() ?? '';
  // bytes may end inside a multi-byte character: a streaming decode leaves it out
  const text =
    typeof firstBytes === 'string' ? firstBytes : new TextDecoder('utf-8').decode(firstBytes, { stream: true });
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('{') && !head.startsWith('[')) return null;

  if (looksLikeJsonl(name, head)) {
    const firstLine = head.split('\n', 1)[0];
    if (SDK_EVENT.test(firstLine) && !/"history"\s*:/.test(firstLine))
      return {
        format: 'openhands',
        container: 'jsonl',
        lines: 'event-per-line',
        version: 'v1-events',
        reason: 'one OpenHands SDK event per line',
      };
    if (
      /"history"\s*:/.test(firstLine) ||
      /"instance_id"\s*:[^\n]*"(instruction|test_result|metadata)"\s*:/.test(firstLine)
    ) {
      return {
        format: 'openhands',
        container: 'jsonl',
        lines: 'record-per-line',
        version: SDK_EVENT.test(firstLine) ? 'v1-events' : 'v0-events',
        reason: 'OpenHands output.jsonl (one instance per line)',
      };
    }
    if (/"model_patch"\s*:/.test(firstLine))
      return {
        format: 'predictions',
        container: 'jsonl',
        lines: 'record-per-line',
        version: 'preds-jsonl',
        reason: 'SWE-bench predictions, one per line',
      };
    if (/"trajectory"\s*:\s*\[/.test(firstLine)) return null;
    if (name.endsWith('.jsonl'))
      return {
        format: 'openhands',
        container: 'jsonl',
        lines: 'record-per-line',
        version: null,
        reason: 'a .jsonl file (read as OpenHands output)',
      };
  }

  if (head.startsWith('[')) {
    const first = head.slice(1).trimStart();
    if (
      /^\{\s*"(role|content)"\s*:/.test(first) ||
      /^\{[^{}]{0,200}"role"\s*:\s*"(system|user|assistant)"/.test(first)
    ) {
      return {
        format: 'mini-swe-agent',
        container: 'json',
        version: 'legacy-list',
        reason: 'a bare list of chat messages (legacy mini-swe-agent)',
      };
    }
    if (SDK_EVENT.test(head))
      return { format: 'openhands', container: 'json', version: 'v1-events', reason: 'a list of OpenHands SDK events' };
    if (/"model_patch"\s*:/.test(head))
      return {
        format: 'predictions',
        container: 'json',
        version: 'preds-json',
        reason: 'a list of SWE-bench predictions',
      };
    if (/"role"\s*:\s*"(system|user|assistant)"/.test(head))
      return { format: 'mini-swe-agent', container: 'json', version: 'legacy-list', reason: 'a list of chat messages' };
    return null;
  }

  const fmt = /"trajectory_format"\s*:\s*"mini-swe-agent-([^"]+)"/.exec(head);
  if (fmt)
    return {
      format: 'mini-swe-agent',
      container: 'json',
      version: fmt[1],
      reason: `trajectory_format mini-swe-agent-${fmt[1]}`,
    };
  if (/"attempts"\s*:\s*\[/.test(head))
    return { format: 'swe-agent', container: 'json', version: null, reason: 'a SWE-agent retry file (attempts)' };
  if (/"trajectory"\s*:\s*\[/.test(head) || (name.endsWith('.traj') && /"(environment|history)"\s*:/.test(head))) {
    const version = /"state"\s*:\s*"/.test(head)
      ? 'v0'
      : /"state"\s*:\s*\{/.test(head) || /"message_type"\s*:/.test(head)
        ? 'v1'
        : null;
    return { format: 'swe-agent', container: 'json', version, reason: 'a SWE-agent .traj (trajectory list)' };
  }
  if (/"mini_version"\s*:/.test(head) || (/"messages"\s*:\s*\[/.test(head) && !/"history"\s*:/.test(head))) {
    return {
      format: 'mini-swe-agent',
      container: 'json',
      version: null,
      reason: 'a mini-swe-agent trajectory (messages)',
    };
  }
  if (/"history"\s*:\s*\[/.test(head))
    return {
      format: 'openhands',
      container: 'json',
      version: SDK_EVENT.test(head) ? 'v1-events' : 'v0-events',
      reason: 'one OpenHands output record',
    };
  if (
    /^\{\s*"[^"]+"\s*:\s*\{\s*"(model_name_or_path|instance_id|model_patch)"/.test(head) ||
    /"model_patch"\s*:/.test(head)
  ) {
    return {
      format: 'predictions',
      container: 'json',
      version: 'preds-json',
      reason: 'SWE-bench predictions keyed by instance id',
    };
  }
  if (name.endsWith('.traj')) return { format: 'swe-agent', container: 'json', version: null, reason: 'a .traj file' };
  if (name.endsWith('.traj.json'))
    return { format: 'mini-swe-agent', container: 'json', version: null, reason: 'a .traj.json file' };
  return null;
}

function looksLikeJsonl(name: string, head: string): boolean {
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return true;
  if (!head.startsWith('{')) return false;
  const nl = head.indexOf('\n');
  if (nl < 0) return false;
  const first = head.slice(0, nl).trim();
  if (!first.endsWith('}')) return false;
  try {
    JSON.parse(first);
  } catch {
    return false;
  }
  return head
    .slice(nl + 1)
    .trimStart()
    .startsWith('{');
}
