// What one step did, in one line: the viewer's step rows and the CLI's table.
import type { FileTouch, TrajectoryStep } from '../../../protocol/trajectory';
import { baseName, clip, firstLine, rangeList, rangesText } from './text';

const MAX_SUMMARY = 120;

function verb(file: FileTouch): string {
  return file.access === 'view'
    ? 'view'
    : file.access === 'create'
      ? 'create'
      : file.access === 'delete'
        ? 'delete'
        : 'edit';
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
    return clip(
      `${verb(file)} ${baseName(file.path)}${rangesText(file.ranges)}${more ? ` (+${more} more)` : ''}`,
      MAX_SUMMARY,
    );
  }
  const text =
    firstLine(step.action) ||
    firstLine(step.tool ? `${step.tool.name} ${JSON.stringify(step.tool.args)}` : '') ||
    firstLine(step.thought);
  return clip(text || `(${step.actionKind})`, MAX_SUMMARY);
}

/** The action's first line as typed (70 characters, ` …` when it goes on), for a table column. */
export function actionLine(s: TrajectoryStep): string {
  const text = s.action.trim() ? s.action : s.thought ? `(thought) ${s.thought}` : '';
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const more = text.trim().split('\n').length > 1 ? ' …' : '';
  return clip(first.trim(), 70) + more;
}

/** `path:1-3,5` per file touched, for a table column (80 characters). */
export function filesLine(touches: readonly FileTouch[]): string {
  const parts = touches.map((t) => `${t.path}${t.ranges.length ? `:${rangeList(t.ranges, ',')}` : ''}`);
  return clip([...new Set(parts)].join(', '), 80);
}
