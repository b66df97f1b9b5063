import type { ActionKind, FileTouch } from '../../../protocol/trajectory';

/**
 * What one step did to the workspace, as far as its action and observation tell: the input of
 * the workspace replay (src/core/trajectories/workspace). Paths are repository-relative.
 */
export type WorkspaceOp =
  /** The step showed lines of the file as they were after the step. */
  | {
      type: 'view';
      path: string;
      startLine: number;
      lines: string[];
      totalLines?: number;
      wholeFile?: boolean;
      endsWithNewline?: boolean;
    }
  /** Lines start..end (inclusive; end = start - 1 inserts) replaced by `lines` (SWE-agent `edit a:b`). */
  | { type: 'replaceLines'; path: string; start: number; end: number; lines: string[] }
  /** str_replace_editor str_replace; `snippet` is the post-edit excerpt the tool printed. */
  | {
      type: 'strReplace';
      path: string;
      oldStr: string;
      newStr: string;
      snippet?: { startLine: number; lines: string[] };
    }
  /** str_replace_editor insert: `text` after line `afterLine` (0 = top). */
  | { type: 'insert'; path: string; afterLine: number; text: string }
  /** The whole file written; `created` true when it did not exist, null when unknown. */
  | { type: 'write'; path: string; content: string; created: boolean | null }
  /** The full content before an edit (OpenHands SDK observations carry it). */
  | { type: 'contentBefore'; path: string; content: string }
  /** sed substitution applied line by line over an optional line range. */
  | {
      type: 'substitute';
      path: string;
      range: { start: number; end: number | null } | null;
      apply: (line: string) => string;
      describe: string;
    }
  | { type: 'delete'; path: string }
  | { type: 'undo'; path: string }
  /** The file changed in a way that cannot be followed; '*' = any file. */
  | { type: 'untracked'; path: string; reason: string }
  /** The agent's own diff of the repository at this step. */
  | { type: 'recordedPatch'; text: string };

export interface StepEffects {
  kind: ActionKind;
  reason: string;
  touches: FileTouch[];
  ops: WorkspaceOp[];
}

export function addTouch(touches: FileTouch[], touch: FileTouch): void {
  const same = touches.find((t) => t.path === touch.path && t.access === touch.access);
  if (!same) {
    touches.push({ ...touch, ranges: [...touch.ranges] });
    return;
  }
  for (const r of touch.ranges)
    if (!same.ranges.some((s) => s.start === r.start && s.end === r.end)) same.ranges.push(r);
}
