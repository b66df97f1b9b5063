import * as vscode from 'vscode';
import { filePath, type Hunk } from '../../core/patch/types';
import { escapeMarkdown } from '../../core/util/markdown';
import type { Decoration } from '../../protocol/analysis';
import type { StepAnnotations } from '../../app/analysis/annotateStep';

const MAX_HUNK_LINES = 40;

/** The gold hunks behind an undershoot entry: the gold patch's hunks overlapping its gold-side lines. */
export function goldHunksFor(annotations: StepAnnotations, file: string, symbol: string | undefined): Hunk[] {
  const entry = [...annotations.analysis.symbols.undershoot, ...annotations.analysis.files.undershoot].find(
    (e) => e.file === file && e.symbol === symbol,
  );
  const gold = annotations.goldPatch.files.find((f) => filePath(f) === file);
  if (!entry || !gold) return [];
  const ranges = entry.ranges.filter((r) => r.side === 'gold');
  return gold.hunks.filter((h) =>
    ranges.some((r) => r.startLine <= h.newStart + Math.max(h.newLines, 1) - 1 && r.endLine >= h.newStart),
  );
}

export function hunkText(h: Hunk): string {
  const body = h.lines.map((l) => `${l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' '}${l.text}`);
  const shown =
    body.length > MAX_HUNK_LINES
      ? [...body.slice(0, MAX_HUNK_LINES), `… ${body.length - MAX_HUNK_LINES} more lines`]
      : body;
  return [
    `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.section ? ` ${h.section}` : ''}`,
    ...shown,
  ].join('\n');
}

/** Said on every mark of a file whose gold version comes from the Oracle start (annotateStep). */
export function goldOnOracleNote(order: number): string {
  return `Gold is compared as it applies on step ${order}'s Oracle state (base + the gold patches of steps 1–${order - 1}): the gold patch does not apply on this step's own start.`;
}

/**
 * What the hover adds to the diagnostics VS Code already shows there (diagnostics.ts says what each
 * mark means, once): for undershoot, the gold hunk the step leaves out; for any mark of a file
 * whose gold version is read on the Oracle state, that it is. Nothing else, so a marked line is
 * explained once.
 */
export function hoverFor(d: Decoration, file: string, annotations: StepAnnotations): vscode.MarkdownString | undefined {
  const oracle = annotations.goldOnOracle.includes(file);
  const hunks = d.kind === 'undershoot' ? goldHunksFor(annotations, file, d.symbol) : [];
  if (hunks.length === 0 && !oracle) return undefined;
  const md = new vscode.MarkdownString();
  // Escaped Markdown, not appendText (which writes spaces as &nbsp; and so never wraps).
  if (oracle) md.appendMarkdown(`${escapeMarkdown(goldOnOracleNote(annotations.order))}${hunks.length ? '\n\n' : ''}`);
  if (hunks.length) {
    md.appendMarkdown(`The gold patch of step ${annotations.order} here:`);
    md.appendCodeblock(hunks.map(hunkText).join('\n'), 'diff');
  }
  return md;
}

/** The gold hunks of the undershoot marks under the mouse, built when asked (decorations carry ranges only). */
export class AnnotationHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly current: () => StepAnnotations | undefined,
    private readonly at: (
      uri: vscode.Uri,
      line: number,
    ) => { file: string; decorations: readonly Decoration[] } | undefined,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const a = this.current();
    const found = a ? this.at(document.uri, position.line + 1) : undefined;
    if (!a || !found) return undefined;
    const shown = found.decorations
      .map((d) => ({ d, md: hoverFor(d, found.file, a) }))
      .filter((x): x is { d: Decoration; md: vscode.MarkdownString } => x.md !== undefined);
    if (shown.length === 0) return undefined;
    const first = Math.min(...shown.map((x) => x.d.startLine));
    const last = Math.max(...shown.map((x) => x.d.endLine));
    return new vscode.Hover(
      shown.map((x) => x.md),
      new vscode.Range(first - 1, 0, last - 1, document.lineAt(Math.min(last, document.lineCount) - 1).text.length),
    );
  }
}
