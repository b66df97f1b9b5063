// The list side of the trajectory viewer: one short row per step, and search over the steps'
// text. Pure (no vscode) so it is unit-tested on the real sample trajectories.
import type { FileTouch, LineRange, Trajectory, TrajectoryProblem, TrajectoryStep } from '../../protocol/trajectory';
import type { StepRow } from '../../protocol/trajectoryView';

const MAX_SUMMARY = 120;

export function stepRows(trajectory: Trajectory, mapPath: (path: string) => string = (p) => p): StepRow[] {
  return trajectory.steps.map((s) => ({
    index: s.index,
    kind: s.actionKind,
    summary: stepSummary(s),
    exitCode: s.exitCode,
    files: [...new Set(s.filesTouched.map((f) => mapPath(f.path)))],
  }));
}

/**
 * One line saying what a step did: for a step that viewed or changed a file, the verb, the file's
 * name and the lines (`edit numpy_handler.py 287-296`); otherwise the first line of the command
 * (or of the thought when the step had no action).
 */
export function stepSummary(step: TrajectoryStep): string {
  const file =
    step.filesTouched.find((f) => f.access === 'edit' || f.access === 'create' || f.access === 'delete') ??
    step.filesTouched.find((f) => f.access === 'view');
  if (file && (step.actionKind === 'edit' || step.actionKind === 'create' || step.actionKind === 'view')) {
    const more = step.filesTouched.filter((f) => f.path !== file.path).length;
    return clip(`${verb(file)} ${baseName(file.path)}${rangesText(file.ranges)}${more ? ` (+${more} more)` : ''}`);
  }
  const text =
    firstLine(step.action) ||
    firstLine(step.tool ? `${step.tool.name} ${JSON.stringify(step.tool.args)}` : '') ||
    firstLine(step.thought);
  return clip(text || `(${step.actionKind})`);
}

function verb(file: FileTouch): string {
  return file.access === 'view'
    ? 'view'
    : file.access === 'create'
      ? 'create'
      : file.access === 'delete'
        ? 'delete'
        : 'edit';
}

export function rangesText(ranges: readonly LineRange[]): string {
  if (!ranges.length) return '';
  const shown = ranges.slice(0, 3).map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`));
  return ` ${shown.join(', ')}${ranges.length > 3 ? ', …' : ''}`;
}

function baseName(path: string): string {
  return path.replace(/\\/g, '/').split('/').filter(Boolean).pop() ?? path;
}

function firstLine(text: string): string {
  for (const line of text.split('\n')) {
    const t = line.replace(/\s+/g, ' ').trim();
    if (t) return t;
  }
  return '';
}

function clip(text: string): string {
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
}

/** Steps whose thought, action or observation contain `query` (case-insensitive), in order. */
export function searchSteps(trajectory: Trajectory, query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return trajectory.steps
    .filter((s) => [s.thought, s.action, s.observation].some((t) => t.toLowerCase().includes(q)))
    .map((s) => s.index);
}

/** A problem of the file, naming file and position: `x.traj:12:5 ($.trajectory[3]): message`. */
export function problemText(p: TrajectoryProblem): string {
  const where = [p.line, p.line !== undefined ? p.column : undefined].filter((n) => n !== undefined).join(':');
  const at = [
    where ? `${p.file}:${where}` : p.file,
    p.byteOffset !== undefined && p.line === undefined ? `byte ${p.byteOffset}` : '',
    p.jsonPath ? `(${p.jsonPath})` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `${at}: ${p.message}`;
}
