// Short texts about a trajectory's steps, shared by the viewer (src/vscode/trajectories) and
// `chainlens trajectory` (src/cli/commands/trajectory.ts): one clip, one way to write line
// ranges, one first line.
import type { LineRange } from '../../../protocol/trajectory';

/** `text` cut to `max` characters, the last one an ellipsis when cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The first non-blank line, with runs of white space made one space. */
export function firstLine(text: string): string {
  for (const line of text.split('\n')) {
    const t = line.replace(/\s+/g, ' ').trim();
    if (t) return t;
  }
  return '';
}

/** `12` or `12-20`. */
export function rangeText(r: LineRange): string {
  return r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`;
}

/** The first three ranges joined with `sep`, then `sep…` when there are more. */
export function rangeList(ranges: readonly LineRange[], sep: string): string {
  const shown = ranges.slice(0, 3).map(rangeText).join(sep);
  return ranges.length > 3 ? `${shown}${sep}…` : shown;
}

/** ` 12-20, 31` after a file name in a step row; empty without ranges. */
export function rangesText(ranges: readonly LineRange[]): string {
  return ranges.length ? ` ${rangeList(ranges, ', ')}` : '';
}

export function baseName(path: string): string {
  return path.replace(/\\/g, '/').split('/').filter(Boolean).pop() ?? path;
}
