// Two runs of one task aligned by what they did, as a person reads them side by side: a step is
// known by its action (the file it viewed or changed, else the command it ran), the longest
// common sequence of actions is paired, and every other step is shown against a gap. Two runs
// that do the same things at different step numbers (one ran an extra `ls` first) line up again.
import type { Trajectory, TrajectoryStep } from '../../protocol/trajectory';
import { firstLine } from './present/text';

/** One row of the alignment: a step of each side, or a step against a gap (null). */
export type AlignedPair = readonly [number | null, number | null];

/** The paired-action table is n × m cells; past this the runs are shown by index (no alignment). */
const MAX_CELLS = 16_000_000;

/**
 * What a step did, comparable across runs: `view <path>`, `edit <path>` (edits, creations and
 * deletions), `submit`, `think`, else the first line of its command with white space made one.
 * Paths go through `path` (workspace-relative where they map), since two runs' sandboxes differ.
 */
export function actionKey(step: TrajectoryStep, path: (p: string) => string = (p) => p): string {
  const changed = step.filesTouched.find((f) => f.access !== 'view');
  const viewed = step.filesTouched.find((f) => f.access === 'view');
  if (changed && (step.actionKind === 'edit' || step.actionKind === 'create')) return `edit ${path(changed.path)}`;
  if (viewed && step.actionKind === 'view') return `view ${path(viewed.path)}`;
  if (step.actionKind === 'submit' || step.actionKind === 'think') return step.actionKind;
  const command = firstLine(step.action) || (step.tool ? `${step.tool.name} ${JSON.stringify(step.tool.args)}` : '');
  return command ? `${step.actionKind} ${command}` : `${step.actionKind} (no action)`;
}

/** Rows by step index, a gap where the shorter side has no step. */
function byIndex(n: number, m: number): AlignedPair[] {
  return Array.from({ length: Math.max(n, m) }, (_, k) => [k < n ? k : null, k < m ? k : null] as const);
}

/**
 * The alignment of two action sequences: a longest common subsequence, paired; the steps between
 * two paired ones are listed left side first, each against a gap. Ties go to the earliest
 * pairing on the left, so the result is the same for the same input.
 */
export function alignKeys(a: readonly string[], b: readonly string[]): AlignedPair[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) return byIndex(n, m);
  // suffix LCS lengths: len[i][j] = LCS of a[i..] and b[j..]
  const w = m + 1;
  const len = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      len[i * w + j] =
        a[i] === b[j] ? len[(i + 1) * w + j + 1] + 1 : Math.max(len[(i + 1) * w + j], len[i * w + j + 1]);
  const out: AlignedPair[] = [];
  let i = 0;
  let j = 0;
  const pendingB: number[] = [];
  while (i < n && j < m) {
    if (a[i] === b[j] && len[i * w + j] === len[(i + 1) * w + j + 1] + 1) {
      for (const k of pendingB) out.push([null, k]);
      pendingB.length = 0;
      out.push([i++, j++]);
    } else if (len[(i + 1) * w + j] >= len[i * w + j + 1]) out.push([i++, null]);
    else pendingB.push(j++);
  }
  for (const k of pendingB) out.push([null, k]);
  while (i < n) out.push([i++, null]);
  while (j < m) out.push([null, j++]);
  return out;
}

/** Two trajectories aligned by action; `path` maps each side's paths to comparable ones. */
export function alignTrajectories(
  left: Trajectory,
  right: Trajectory,
  path: { left: (p: string) => string; right: (p: string) => string },
): AlignedPair[] {
  return alignKeys(
    left.steps.map((s) => actionKey(s, path.left)),
    right.steps.map((s) => actionKey(s, path.right)),
  );
}
