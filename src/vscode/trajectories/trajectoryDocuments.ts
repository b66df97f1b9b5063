// Read-only documents the trajectory viewer opens: a file as of a step, the agent's submission,
// the gold and test patches. Their text is computed when asked for and kept here by URI; the
// path ends with the file's own name so the editor picks the right language. They are
// `chainlens:/trajectory/...` documents of the one provider (src/vscode/documents):
//   chainlens:/trajectory/<panel>/step-<k>/<path>      the file after step k
//   chainlens:/trajectory/<panel>/patches/<name>.diff  submission, gold, test patch
import * as vscode from 'vscode';
import { documentUri, type ChainLensDocuments } from '../documents/chainLensDocuments';

export class TrajectoryDocuments implements vscode.Disposable {
  private readonly texts = new Map<string, string>();

  constructor(private readonly documents: ChainLensDocuments) {
    documents.setSource(
      'trajectory',
      (ref) =>
        this.texts.get(documentUri(ref).toString()) ??
        `This trajectory document is no longer available (its viewer was closed): ${ref.path}\n`,
    );
  }

  /** Remembers `text` under a URI built from `<panel>/<path>` and returns it. */
  put(path: string, text: string): vscode.Uri {
    const [panel, ...rest] = path.replace(/^\/+/, '').split('/');
    const uri = documentUri({ kind: 'trajectory', panel, path: rest.join('/') });
    const key = uri.toString();
    const before = this.texts.get(key);
    this.texts.set(key, text);
    if (before !== undefined && before !== text) this.documents.fire(uri);
    return uri;
  }

  /** Drops the texts of one panel (when it closes). */
  forgetPanel(panelId: string): void {
    const prefix = documentUri({ kind: 'trajectory', panel: panelId, path: '' }).toString();
    for (const key of [...this.texts.keys()]) if (key.startsWith(prefix)) this.texts.delete(key);
  }

  dispose(): void {
    this.texts.clear();
  }
}
