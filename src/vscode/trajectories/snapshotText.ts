// A file as of a step, as text for a read-only editor. Lines the trajectory never revealed stay
// empty so every known line keeps its real line number; the caller says why they are unknown.
import type { FileSnapshot } from '../../protocol/trajectory';

export interface SnapshotText {
  text: string;
  /** Lines shown empty because their content is unknown (1-based, inclusive runs). */
  unknown: { start: number; end: number }[];
}

export function snapshotText(snapshot: FileSnapshot): SnapshotText {
  if (snapshot.text !== null) return { text: snapshot.text, unknown: [] };
  const known = new Map<number, string>();
  for (const run of snapshot.runs) run.lines.forEach((line, k) => known.set(run.startLine + k, line));
  const lastKnown = Math.max(0, ...known.keys());
  const total = snapshot.totalLines ?? lastKnown;
  const lines: string[] = [];
  const unknown: SnapshotText['unknown'] = [];
  for (let n = 1; n <= total; n++) {
    const line = known.get(n);
    if (line === undefined) {
      const last = unknown[unknown.length - 1];
      if (last && last.end === n - 1) last.end = n;
      else unknown.push({ start: n, end: n });
    }
    lines.push(line ?? '');
  }
  return { text: lines.length ? `${lines.join('\n')}\n` : '', unknown };
}
