// Draws the annotations of the annotated step: one decoration type per kind and level (created once), every
// visible editor of an annotated file set in one pass per kind. Colours are contributed theme
// colours (package.json contributes.colors), so themes and high contrast can change them.
import * as vscode from 'vscode';
import type { Decoration, DecorationKind } from '../../protocol/analysis';
import type { StepAnnotations } from '../../app/analysis/annotateStep';
import { DerivedMemo, LastSent } from './drawMemo';

/** A file's ranges per kind, split into the full and the quiet decoration types. */
interface Ranges {
  full: Map<DecorationKind, vscode.Range[]>;
  quiet: Map<DecorationKind, vscode.Range[]>;
}

const EMPTY: vscode.Range[] = [];

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
  /** Ranges built once per decoration list, line count and levels (a redraw with nothing new builds none). */
  private readonly ranges = new DerivedMemo<readonly Decoration[], Ranges>();
  /** The ranges each visible editor was last given per decoration type: the same again is not sent. */
  private readonly sent = new LastSent<vscode.TextEditor, readonly vscode.Range[]>();

  /**
   * Sets the decorations of the visible editors: `decorationsOf(file)` gives what to draw
   * (already filtered by the settings; the same list object while it is unchanged), `levelsKey`
   * names the levels `isQuiet` answers from.
   * Ranges only: hovers come from AnnotationHoverProvider when asked, so a redraw ships no
   * markdown to the renderer (on a 10,000-line file that was most of a keystroke's cost).
   */
  paint(
    annotations: StepAnnotations | undefined,
    relativePath: (uri: vscode.Uri) => string | undefined,
    decorationsOf: (file: string) => readonly Decoration[],
    isQuiet: (kind: DecorationKind) => boolean,
    levelsKey: string,
  ): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const file = annotations ? relativePath(editor.document.uri) : undefined;
      const list = file !== undefined ? decorationsOf(file) : [];
      const last = editor.document.lineCount;
      const ranges =
        list.length === 0
          ? undefined
          : this.ranges.get(list, `${levelsKey}/${last}`, () => this.build(list, last, isQuiet));
      // Each kind is set on both of its types (one of them maybe empty), so switching level clears the other.
      for (const kind of KINDS) {
        this.set(editor, this.full.get(kind)!, `full/${kind}`, ranges?.full.get(kind) ?? EMPTY);
        this.set(editor, this.quiet.get(kind)!, `quiet/${kind}`, ranges?.quiet.get(kind) ?? EMPTY);
      }
    }
  }

  private set(editor: vscode.TextEditor, type: vscode.TextEditorDecorationType, slot: string, ranges: vscode.Range[]) {
    if (this.sent.changed(editor, slot, ranges)) editor.setDecorations(type, ranges);
  }

  private build(list: readonly Decoration[], last: number, isQuiet: (kind: DecorationKind) => boolean): Ranges {
    const full = new Map<DecorationKind, vscode.Range[]>(KINDS.map((k) => [k, []]));
    const quiet = new Map<DecorationKind, vscode.Range[]>(KINDS.map((k) => [k, []]));
    for (const d of list) {
      if (d.startLine > last) continue;
      // Low-confidence drift suggestions are drawn quietly whatever the setting (docs/reference/drift.md).
      const target = isQuiet(d.kind) || d.confidence === 'low' ? quiet : full;
      // To the end of the last line, so hovering anywhere on the annotated lines shows the hover.
      target
        .get(d.kind)!
        .push(new vscode.Range(d.startLine - 1, 0, Math.min(d.endLine, last) - 1, Number.MAX_SAFE_INTEGER));
    }
    return { full, quiet };
  }

  dispose(): void {
    for (const t of [...this.full.values(), ...this.quiet.values()]) t.dispose();
  }
}
