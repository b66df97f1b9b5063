// The list side of the trajectory viewer: one short row per step, and search over the steps'
// text. Pure, so it is unit-tested on the real sample trajectories.
import type { Trajectory } from '../../../protocol/trajectory';
import type { StepRow } from '../../../protocol/trajectoryView';
import { stepSummary } from './stepText';

export function stepRows(trajectory: Trajectory, mapPath: (path: string) => string = (p) => p): StepRow[] {
  return trajectory.steps.map((s) => ({
    index: s.index,
    kind: s.actionKind,
    summary: stepSummary(s),
    exitCode: s.exitCode,
    files: [...new Set(s.filesTouched.map((f) => mapPath(f.path)))],
  }));
}

/** Steps whose thought, action or observation contain `query` (case-insensitive), in order. */
export function searchSteps(trajectory: Trajectory, query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return trajectory.steps
    .filter((s) => [s.thought, s.action, s.observation].some((t) => t.toLowerCase().includes(q)))
    .map((s) => s.index);
}
