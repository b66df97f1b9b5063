// A folder of agent runs as the SWE-agent and mini-swe-agent inspectors list it: one row per
// trajectory with its instance, exit status, number of steps and cost, and whether the instance
// was resolved when an evaluation report lies beside the trajectories. Pure: the files are read
// by src/infra/trajectories/trajectoryFolder.ts.
import type { Trajectory, TrajectoryFile } from '../../protocol/trajectory';
import { isRecord } from './sourceReader';

export interface TrajectoryFolderRow {
  /** The trajectory file. */
  readonly file: string;
  /** Which trajectory of the file (output.jsonl and retry files hold several). */
  readonly index: number;
  readonly instance: string;
  readonly exitStatus: string | null;
  readonly steps: number;
  readonly costUsd: number | null;
  /** From a report beside the trajectories; null when none names this instance. */
  readonly resolved: boolean | null;
  /** Problems reading the file (the row is still listed). */
  readonly problems: number;
  /** `swe-agent v1`, `openhands v0-events`, `predictions preds-json`; null when unreadable. */
  readonly format: string | null;
}

/**
 * Instance ids and whether each was resolved, from any evaluation report shape the SWE-bench
 * tools write: the harness's run report (`resolved_ids`, `unresolved_ids`, `error_ids`), its
 * per-instance `report.json` (`{ "<id>": { "resolved": true } }`) and older `results.json`
 * files (`resolved` as a list of ids). Anything else gives nothing.
 */
export function resolvedFromReport(doc: unknown): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (!isRecord(doc)) return out;
  const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  if (Array.isArray(doc.resolved_ids) || Array.isArray(doc.resolved)) {
    for (const id of [...ids(doc.unresolved_ids), ...ids(doc.error_ids), ...ids(doc.completed_ids)]) out.set(id, false);
    for (const id of [...ids(doc.resolved_ids), ...ids(doc.resolved)]) out.set(id, true);
    return out;
  }
  for (const [id, entry] of Object.entries(doc))
    if (isRecord(entry) && typeof entry.resolved === 'boolean') out.set(id, entry.resolved);
  return out;
}

function instanceOf(t: Trajectory, file: string): string {
  return t.instanceId ?? file.replace(/\\/g, '/').split('/').pop() ?? file;
}

/**
 * Rows of the files read, one per trajectory (a multi-instance file gives one row per instance),
 * in instance order; `resolved` merges every report found.
 */
export function folderRows(
  files: readonly TrajectoryFile[],
  resolved: ReadonlyMap<string, boolean>,
): TrajectoryFolderRow[] {
  const rows: TrajectoryFolderRow[] = [];
  for (const f of files) {
    // A file that could not be read is listed too, with its problems.
    if (f.trajectories.length === 0)
      rows.push({
        file: f.file,
        index: 0,
        instance: f.file.replace(/\\/g, '/').split('/').pop() ?? f.file,
        exitStatus: null,
        steps: 0,
        costUsd: null,
        resolved: null,
        problems: Math.max(1, f.problems.length),
        format: null,
      });
    f.trajectories.forEach((t, index) => {
      const instance = instanceOf(t, f.file);
      rows.push({
        file: f.file,
        index,
        instance,
        exitStatus: t.exitStatus,
        steps: t.steps.length,
        costUsd: t.modelStats?.costUsd ?? null,
        resolved: resolved.get(instance) ?? null,
        problems: t.problems.length + f.problems.length,
        format: `${t.source.format} ${t.source.version}`,
      });
    });
  }
  // A predictions file beside the runs repeats each instance's patch without its steps: listed
  // only for instances no trajectory of the folder shows.
  const withSteps = new Set(rows.filter((r) => !r.format?.startsWith('predictions ')).map((r) => r.instance));
  return rows
    .filter((r) => !r.format?.startsWith('predictions ') || !withSteps.has(r.instance))
    .sort((a, b) => a.instance.localeCompare(b.instance) || a.file.localeCompare(b.file) || a.index - b.index);
}

/** One line for a list: "submitted · 12 steps · $1.27 · resolved". */
export function describeRow(r: TrajectoryFolderRow): string {
  return [
    r.exitStatus ?? 'no exit status',
    `${r.steps} step${r.steps === 1 ? '' : 's'}`,
    r.costUsd !== null ? `$${r.costUsd.toFixed(2)}` : null,
    r.resolved === null ? null : r.resolved ? 'resolved' : 'not resolved',
    r.problems > 0 ? `${r.problems} problem${r.problems === 1 ? '' : 's'}` : null,
  ]
    .filter((x) => x !== null)
    .join(' · ');
}
