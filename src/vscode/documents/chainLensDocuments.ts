// One TextDocumentContentProvider for every ChainLens document (the `chainlens:` scheme of
// documentRef.ts). Each kind has one source: file versions and patches come from the use cases
// in src/app/fileVersions (registerDocuments.ts), trajectory texts from the trajectory viewer.
import * as vscode from 'vscode';
import {
  CHAINLENS_SCHEME,
  decodeDocumentPath,
  encodeDocumentPath,
  type DocumentKind,
  type DocumentRef,
} from './documentRef';

export type DocumentSource<K extends DocumentKind> = (
  ref: Extract<DocumentRef, { kind: K }>,
) => string | Promise<string>;

export function documentUri(ref: DocumentRef): vscode.Uri {
  return vscode.Uri.from({ scheme: CHAINLENS_SCHEME, path: encodeDocumentPath(ref) });
}

export function documentRefOf(uri: vscode.Uri): DocumentRef | undefined {
  return uri.scheme === CHAINLENS_SCHEME ? decodeDocumentPath(uri.path) : undefined;
}

export class ChainLensDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly sources = new Map<DocumentKind, (ref: DocumentRef) => string | Promise<string>>();

  /** The one source of a kind's text (a second registration replaces the first). */
  setSource<K extends DocumentKind>(kind: K, source: DocumentSource<K>): void {
    // The map is keyed by kind, so a source is only ever called with a ref of its own kind.
    this.sources.set(kind, source as (ref: DocumentRef) => string | Promise<string>);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = documentRefOf(uri);
    const source = ref && this.sources.get(ref.kind);
    if (!ref || !source) return `Not a ChainLens document: ${uri.toString()}\n`;
    return source(ref);
  }

  /** Re-reads the open documents the predicate picks (their text changed: a run change, a save). */
  refresh(which: (ref: DocumentRef) => boolean): void {
    for (const d of vscode.workspace.textDocuments) {
      const ref = documentRefOf(d.uri);
      if (ref && which(ref)) this.changed.fire(d.uri);
    }
  }

  /** Tells the editor one document's text changed. */
  fire(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
    this.sources.clear();
  }
}
