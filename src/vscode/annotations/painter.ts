// Draws the annotations of the annotated step: one decoration type per kind and level (created once), every
// visible editor of an annotated file set in one pass per kind. Colours are contributed theme
// colours (package.json contributes.colors), so themes and high contrast can change them.
import * as vscode from 'vscode';
import type { Decoration, DecorationKind } from '../../protocol/analysis';
import type { StepAnnotations } from '../../app/analysis/annotateStep';

export const KINDS: readonly DecorationKind[] = ['overshoot', 'undershoot', 'drift'];

const GUTTER: Record<DecorationKind, string> = {
  // Fixed-colour marks (an SVG cannot use theme colours); shape tells the kinds apart without colour.
  overshoot: '<rect x="5" y="0" width="4" height="16" fill="#d18616"/>',
  undershoot: '<path d="M3 3 L12 8 L3 13 Z" fill="#a371f7"/>',
  drift: '<circle cx="8" cy="8" r="3.5" fill="#3794ff"/>',
};

function gutterIcon(kind: DecorationKind): vscode.Uri {
  return vscode.Uri.parse(
    `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16">${GUTTER[kind]}</svg>`)}`,
  );
}

function typeFor(kind: DecorationKind, quiet: boolean): vscode.TextEditorDecorationType {
  const base = `chainlens.annotations.${kind}`;
  return vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    ...(quiet ? {} : { backgroundColor: new vscode.ThemeColor(`${base}Background`) }),
    overviewRulerColor: new vscode.ThemeColor(`${base}Ruler`),
    overviewRulerLane:
      kind === 'overshoot'
        ? vscode.OverviewRulerLane.Left
        : kind === 'undershoot'
          ? vscode.OverviewRulerLane.Center
          : vscode.OverviewRulerLane.Right,
    gutterIconPath: gutterIcon(kind),
    gutterIconSize: 'contain',
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
}

export class AnnotationPainter implements vscode.Disposable {
  private readonly full = new Map(KINDS.map((k) => [k, typeFor(k, false)] as const));
  private readonly quiet = new Map(KINDS.map((k) => [k, typeFor(k, true)] as const));

  /**
   * Sets the decorations of the visible editors: `decorationsOf(file)` gives what to draw
   * (already filtered by the settings).
   * Ranges only: hovers come from AnnotationHoverProvider when asked, so a redraw ships no
   * markdown to the renderer (on a 10,000-line file that was most of a keystroke's cost).
   */
  paint(
    annotations: StepAnnotations | undefined,
    relativePath: (uri: vscode.Uri) => string | undefined,
    decorationsOf: (file: string) => readonly Decoration[],
    isQuiet: (kind: DecorationKind) => boolean,
  ): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const file = annotations ? relativePath(editor.document.uri) : undefined;
      const list = file !== undefined ? decorationsOf(file) : [];
      const full = new Map<DecorationKind, vscode.Range[]>(KINDS.map((k) => [k, []]));
      const quiet = new Map<DecorationKind, vscode.Range[]>(KINDS.map((k) => [k, []]));
      const last = editor.document.lineCount;
      for (const d of list) {
        if (d.startLine > last) continue;
        // Low-confidence drift suggestions are drawn quietly whatever the setting (docs/reference/drift.md).
        const target = isQuiet(d.kind) || d.confidence === 'low' ? quiet : full;
        // To the end of the last line, so hovering anywhere on the annotated lines shows the hover.
        target
          .get(d.kind)!
          .push(new vscode.Range(d.startLine - 1, 0, Math.min(d.endLine, last) - 1, Number.MAX_SAFE_INTEGER));
      }
      // Each kind is set on both of its types (one of them maybe empty), so switching level clears the other.
      for (const kind of KINDS) {
        editor.setDecorations(this.full.get(kind)!, full.get(kind)!);
        editor.setDecorations(this.quiet.get(kind)!, quiet.get(kind)!);
      }
    }
  }

  dispose(): void {
    for (const t of [...this.full.values(), ...this.quiet.values()]) t.dispose();
  }
}
