// The editor follows the selected step: the file it viewed or edited opens at the touched lines,
// which are highlighted with one decoration type (created once, a contributed theme colour).
import * as vscode from 'vscode';
import type { LineRange } from '../../protocol/trajectory';

export class TouchedLines implements vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('chainlens.trajectory.touchedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('chainlens.trajectory.touchedLineBackground'),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private decorated: vscode.TextEditor | undefined;

  /** Opens `uri` beside the viewer without taking focus from it, at `ranges`, highlighted. */
  async show(
    uri: vscode.Uri,
    ranges: readonly LineRange[],
    column: vscode.ViewColumn,
    hover: string,
  ): Promise<vscode.TextEditor> {
    const document = await vscode.workspace.openTextDocument(uri);
    const last = Math.max(0, document.lineCount - 1);
    const clamp = (line: number) => Math.min(Math.max(line - 1, 0), last);
    const lines = ranges.map(
      (r) => new vscode.Range(clamp(r.start), 0, clamp(r.end), document.lineAt(clamp(r.end)).range.end.character),
    );
    const selection = lines[0] ? new vscode.Selection(lines[0].start, lines[0].start) : undefined;
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: column,
      preserveFocus: true,
      preview: true,
      selection,
    });
    this.clear();
    editor.setDecorations(
      this.decoration,
      lines.map((range) => ({ range, hoverMessage: hover })),
    );
    if (lines[0]) editor.revealRange(lines[0], vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.decorated = editor;
    return editor;
  }

  clear(): void {
    this.decorated?.setDecorations(this.decoration, []);
    this.decorated = undefined;
  }

  dispose(): void {
    this.decoration.dispose();
  }
}
