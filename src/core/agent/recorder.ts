// Turns what an agent did on a step (its ChainLens tool calls, and the work-tree changes seen
// between them) into ChainLens's Trajectory model and into a mini-swe-agent 1.1 document, so the
// trajectory viewer, `chainlens trajectory` and mini-swe-agent tooling all read the same record.
import type { AgentEvent, AgentRecord } from '../../protocol/agent';
import type { ActionKind, FileTouch, Trajectory, TrajectoryStep } from '../../protocol/trajectory';

type WorktreeEvent = Extract<AgentEvent, { kind: 'worktree' }>;
type FileChange = WorktreeEvent['files'][number];

/** A unified diff cut into its per-file sections, keyed by the file's (new) path. */
export function diffSections(patch: string): Map<string, { text: string; change: FileChange['change'] }> {
  const out = new Map<string, { text: string; change: FileChange['change'] }>();
  const starts = [...patch.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)];
  starts.forEach((m, i) => {
    const text = patch.slice(m.index, i + 1 < starts.length ? starts[i + 1].index : patch.length);
    const change = /^new file mode/m.test(text.split('\n@@')[0])
      ? 'added'
      : /^deleted file mode/m.test(text.split('\n@@')[0])
        ? 'deleted'
        : 'modified';
    out.set(change === 'deleted' ? m[1] : m[2], { text, change });
  });
  return out;
}

/**
 * The work-tree change between two observations (both diffs from the step start), or null when
 * nothing changed. A file whose edits were undone shows as `modified` with an empty section.
 */
export function worktreeChange(previous: string, current: string, id: string, at: string): WorktreeEvent | null {
  if (previous === current) return null;
  const before = diffSections(previous);
  const after = diffSections(current);
  const files: FileChange[] = [];
  const sections: string[] = [];
  for (const [path, s] of after) {
    if (before.get(path)?.text === s.text) continue;
    files.push({ path, change: s.change });
    sections.push(s.text);
  }
  for (const path of before.keys()) {
    if (!after.has(path)) files.push({ path, change: 'modified' });
  }
  if (!files.length) return null;
  return { kind: 'worktree', id, files, diff: sections.join(''), patch: current, at };
}

const TOOL_KINDS: Record<string, { kind: ActionKind; reason: string }> = {
  get_current_step: { kind: 'view', reason: 'reads the step (ChainLens tool)' },
  get_run_status: { kind: 'view', reason: 'reads the run status (ChainLens tool)' },
  submit_step: { kind: 'submit', reason: 'submits the step (ChainLens tool)' },
  run_tests: { kind: 'test', reason: "runs the step's tests (ChainLens tool)" },
};

export function renderToolCall(tool: string, args: Record<string, unknown>): string {
  return `${tool}(${Object.keys(args).length ? JSON.stringify(args) : ''})`;
}

export function renderWorktreeChange(e: WorktreeEvent): string {
  return `work tree changed: ${e.files.map((f) => `${f.path} (${f.change})`).join(', ')}`;
}

/** The record as ChainLens's normalised trajectory (what the viewer shows). */
export function recordToTrajectory(record: AgentRecord, file: string): Trajectory {
  let patchSoFar: string | null = null;
  const steps: TrajectoryStep[] = record.events.map((e, index) => {
    const origin = { jsonPath: `$.info.chainlens.events[${index}]` };
    if (e.kind === 'worktree') {
      patchSoFar = e.patch;
      const filesTouched: FileTouch[] = e.files.map((f) => ({
        path: f.path,
        access: f.change === 'added' ? 'create' : f.change === 'deleted' ? 'delete' : 'edit',
        ranges: [],
      }));
      return {
        index,
        thought: '',
        action: renderWorktreeChange(e),
        actionKind: e.files.every((f) => f.change === 'added') ? 'create' : 'edit',
        actionKindReason: 'the work tree changed between tool calls (seen by ChainLens with git diff)',
        observation: e.diff,
        exitCode: null,
        filesTouched,
        executionTimeSec: null,
        timestamp: e.at,
        patchSoFar: { text: e.patch, origin: 'recorded', complete: true, gaps: [] },
        origin,
      };
    }
    const kind = TOOL_KINDS[e.tool] ?? { kind: 'other' as const, reason: 'ChainLens tool' };
    return {
      index,
      thought: '',
      action: renderToolCall(e.tool, e.args),
      actionKind: kind.kind,
      actionKindReason: kind.reason,
      tool: { name: e.tool, args: e.args, id: e.id },
      observation: e.result,
      exitCode: e.isError ? 1 : 0,
      filesTouched: [],
      executionTimeSec: e.durationMs / 1000,
      timestamp: e.at,
      patchSoFar: patchSoFar === null ? null : { text: patchSoFar, origin: 'recorded', complete: true, gaps: [] },
      origin,
    };
  });
  return {
    source: { format: 'mini-swe-agent', version: '1.1', file },
    workspaceRoot: record.workspaceRoot,
    instanceId: record.instanceId,
    model: record.agent,
    exitStatus: record.exitStatus,
    submission: record.submission,
    modelStats: null,
    problemStatement: record.problemStatement,
    image: null,
    attempt: null,
    steps,
    problems: [],
  };
}

/** Seconds the agent spent on the step (to its end, or to `now` while it works). */
export function timeSpentSec(record: AgentRecord, now: Date): number {
  const end = record.endedAt ? new Date(record.endedAt) : now;
  return Math.max(0, (end.getTime() - new Date(record.startedAt).getTime()) / 1000);
}

/**
 * The record as a mini-swe-agent 1.1 `.traj.json`: each event is an assistant message with one
 * tool call and the tool message answering it; the record itself rides along in `info.chainlens`
 * so ChainLens can continue it (a new MCP process on the same step) without losing anything.
 */
export function recordToMiniSweAgent(record: AgentRecord, now: Date): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [
    {
      role: 'system',
      content: `ChainLens attached agent '${record.agent}' solving step ${record.step} of run ${record.runId} in ${record.workspaceRoot}.`,
    },
    { role: 'user', content: `Please solve this issue: ${record.problemStatement}` },
  ];
  for (const e of record.events) {
    const stamp = new Date(e.at).getTime() / 1000;
    if (e.kind === 'tool') {
      messages.push({
        role: 'assistant',
        content: '',
        tool_calls: [{ id: e.id, type: 'function', function: { name: e.tool, arguments: JSON.stringify(e.args) } }],
        extra: { timestamp: stamp },
      });
      messages.push({
        role: 'tool',
        tool_call_id: e.id,
        content: e.result,
        extra: {
          returncode: e.isError ? 1 : 0,
          execution_time: e.durationMs / 1000,
          timestamp: stamp + e.durationMs / 1000,
        },
      });
    } else {
      const args = { files: e.files.map((f) => f.path) };
      messages.push({
        role: 'assistant',
        content: renderWorktreeChange(e),
        tool_calls: [
          { id: e.id, type: 'function', function: { name: 'worktree_change', arguments: JSON.stringify(args) } },
        ],
        extra: { timestamp: stamp },
      });
      messages.push({ role: 'tool', tool_call_id: e.id, content: e.diff, extra: { returncode: 0, timestamp: stamp } });
    }
  }
  if (record.exitStatus !== 'working')
    messages.push({
      role: 'exit',
      content: '',
      extra: { exit_status: record.exitStatus, submission: record.submission ?? '' },
    });
  const calls = record.events.filter((e) => e.kind === 'tool').length;
  return {
    trajectory_format: 'mini-swe-agent-1.1',
    instance_id: record.instanceId,
    info: {
      exit_status: record.exitStatus,
      submission: record.submission ?? '',
      model_stats: { instance_cost: 0, api_calls: calls },
      time_spent_s: timeSpentSec(record, now),
      mini_version: 'chainlens-agent-1',
      config: { model: { model_name: record.agent }, environment: { cwd: record.workspaceRoot } },
      chainlens: record,
    },
    messages,
  };
}
