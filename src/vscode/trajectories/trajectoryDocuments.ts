// Read-only documents the trajectory viewer opens: a file as of a step, the agent's submission,
// the gold and test patches. Their text is computed when asked for and kept here by URI; the
// path ends with the file's own name so the editor picks the right language.
//   chainlens-trajectory:/<panel>/step-<k>/<path>      the file after step k
//   chainlens-trajectory:/<panel>/patches/<name>.diff  submission, gold, test patch
import * as vscode from 'vscode';

export const TRAJECTORY_SCHEME = 'chainlens-trajectory';

export class TrajectoryDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Remembers `text` under a URI built from `path` and returns it. */
  put(path: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: TRAJECTORY_SCHEME, path: path.startsWith('/') ? path : `/${path}` });
    const key = uri.toString();
    const before = this.texts.get(key);
    this.texts.set(key, text);
    if (before !== undefined && before !== text) this.changed.fire(uri);
    return uri;
  }

  /** Drops the texts of one panel (when it closes). */
  forgetPanel(panelId: string): void {
    for (const key of [...this.texts.keys()])
      if (vscode.Uri.parse(key).path.startsWith(`/${panelId}/`)) this.texts.delete(key);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.texts.get(uri.toString()) ??
      `This trajectory document is no longer available (its viewer was closed): ${uri.path}\n`
    );
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}
