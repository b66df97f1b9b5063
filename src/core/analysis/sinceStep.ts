// A submitted step's annotations are about the file as that step left it; the editor shows the
// work tree, which later steps (or Oracle's gold states) may have changed since. This maps lines
// between the two versions: lines unchanged since the step shift to where they are now, and an
// annotation on code that has changed since is dropped, because it no longer describes what is
// there. Pure (no 'vscode'), unit-tested on its own.
import { diffLines } from 'diff';
import { mapSpan, type LineEdit, type LineSpan } from './rangeMapping';

/** The edits that turn `before` into `after`, bottom-up so each applies to the old line numbers. */
export function lineEditsBetween(before: string, after: string): LineEdit[] {
  if (before === after) return [];
  const edits: LineEdit[] = [];
  let oldLine = 1;
  let pending: { startLine: number; removed: number; added: number } | undefined;
  const flush = () => {
    if (pending)
      edits.push({
        startLine: pending.startLine,
        endLine: pending.startLine + pending.removed - 1,
        newLineCount: pending.added,
      });
    pending = undefined;
  };
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.removed || part.added) {
      pending ??= { startLine: oldLine, removed: 0, added: 0 };
      if (part.removed) {
        pending.removed += count;
        oldLine += count;
      } else pending.added += count;
    } else {
      flush();
      oldLine += count;
    }
  }
  flush();
  return edits.reverse();
}

/**
 * Where a span of the old version is in the new one: shifted past the edits, stretched by lines
 * inserted inside it, or undefined when any of its own lines was replaced or deleted.
 */
export function mapUnchanged<T extends LineSpan>(span: T, edits: readonly LineEdit[]): T | undefined {
  let out: T = span;
  for (const e of edits) {
    const touchesOwnLines: boolean =
      e.endLine >= e.startLine && out.startLine <= e.endLine && out.endLine >= e.startLine;
    const next = touchesOwnLines ? undefined : mapSpan(out, e);
    if (!next) return undefined;
    out = next;
  }
  return out;
}

/** Line mapping between a step's version of its files and the work tree, per file. */
export interface WorkTreeLines {
  /** A span of the step's version, where it is in the work tree now; undefined if changed since. */
  toWorkTree<T extends LineSpan>(file: string, span: T): T | undefined;
  /** A span of the work tree, where it was in the step's version (for label records); undefined if changed since. */
  toStep<T extends LineSpan>(file: string, span: T): T | undefined;
  /** Files whose annotations are partly or wholly hidden because the work tree changed them since. */
  readonly changedSince: readonly string[];
}

export const SAME_LINES: WorkTreeLines = { toWorkTree: (_f, s) => s, toStep: (_f, s) => s, changedSince: [] };

/**
 * The mapping for `files`: `stepText` is a file as the step left it, `nowText` as the editor or
 * disk has it (undefined: deleted since, so nothing of it maps).
 */
export function workTreeLines(
  files: Iterable<string>,
  stepText: (file: string) => string | undefined,
  nowText: (file: string) => string | undefined,
): WorkTreeLines {
  const forward = new Map<string, LineEdit[] | null>();
  const backward = new Map<string, LineEdit[] | null>();
  for (const file of files) {
    const before = stepText(file);
    const now = nowText(file);
    if (before === now) continue;
    forward.set(file, before === undefined || now === undefined ? null : lineEditsBetween(before, now));
    backward.set(file, before === undefined || now === undefined ? null : lineEditsBetween(now, before));
  }
  const through = <T extends LineSpan>(table: Map<string, LineEdit[] | null>, file: string, span: T): T | undefined => {
    const edits = table.get(file);
    return edits === undefined ? span : edits === null ? undefined : mapUnchanged(span, edits);
  };
  return {
    toWorkTree: (file, span) => through(forward, file, span),
    toStep: (file, span) => through(backward, file, span),
    changedSince: [...forward.keys()],
  };
}
