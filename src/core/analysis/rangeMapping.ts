// Keeps annotation line ranges on the right code while a person types, until the debounced
// re-analysis replaces them. Pure (no 'vscode'), so it is unit-tested on its own.

/** A 1-based inclusive line range. */
export interface LineSpan {
  readonly startLine: number;
  readonly endLine: number;
}

/** One text edit as line numbers: lines `startLine..endLine` (1-based, of the old text) became `newLineCount` lines. */
export interface LineEdit {
  readonly startLine: number;
  readonly endLine: number;
  readonly newLineCount: number;
}

/**
 * Where a range sits after one edit. Ranges above the edit stay, ranges below shift by the line
 * delta; a range the edit overlaps keeps its start (clamped into the edited region) and stretches
 * or shrinks with it. Returns undefined when the edit removed every line of the range.
 */
export function mapSpan<T extends LineSpan>(span: T, edit: LineEdit): T | undefined {
  const delta = edit.newLineCount - (edit.endLine - edit.startLine + 1);
  if (span.endLine < edit.startLine) return span;
  if (span.startLine > edit.endLine)
    return { ...span, startLine: span.startLine + delta, endLine: span.endLine + delta };
  const editLastNew = edit.startLine + edit.newLineCount - 1;
  const fullyInside = span.startLine >= edit.startLine && span.endLine <= edit.endLine;
  if (fullyInside && edit.newLineCount === 0) return undefined;
  const startLine =
    span.startLine < edit.startLine ? span.startLine : Math.min(span.startLine, Math.max(edit.startLine, editLastNew));
  const endLine =
    span.endLine > edit.endLine ? span.endLine + delta : Math.max(startLine, Math.min(span.endLine, editLastNew));
  return { ...span, startLine, endLine: Math.max(startLine, endLine) };
}

/** Applies edits in the order VS Code reports them for one change event (each on the text left by the previous). */
export function mapSpans<T extends LineSpan>(spans: readonly T[], edits: readonly LineEdit[]): T[] {
  let out: T[] = [...spans];
  for (const e of edits) out = out.map((s) => mapSpan(s, e)).filter((s): s is T => s !== undefined);
  return out;
}

/**
 * VS Code change → LineEdit: `range` lines are 0-based; `text` is what replaced it. An edit that
 * ends at column 0 of a line does not touch that line's content, but the line still moves, so it
 * is counted as replaced and re-counted in the new text.
 */
export function toLineEdit(startLine0: number, endLine0: number, text: string): LineEdit {
  const newLines = text.split('\n').length;
  return { startLine: startLine0 + 1, endLine: endLine0 + 1, newLineCount: newLines };
}
