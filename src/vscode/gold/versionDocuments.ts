// Read-only virtual documents for the versions of fileVersions.ts, named so that three tabs side by
// side tell themselves apart ("parse.py (gold)", "parse.py (recorded)", "parse.py (step 2)"):
//   chainlens-version:/<run>/step-<k>/<kind>/<repo path> (<label>)
// The kind segment is what the provider reads; the suffix is only for the tab title.
import * as vscode from 'vscode';
import type { ChainLensServices } from '../services';
import { fileVersion, type VersionKind } from './fileVersions';

export const VERSION_SCHEME = 'chainlens-version';

export interface VersionTarget {
  readonly runId: string;
  readonly order: number;
  readonly kind: VersionKind;
  readonly path: string;
}

function suffix(kind: VersionKind, order: number): string {
  return kind === 'submitted' ? `step ${order}` : kind;
}

export function versionUri(t: VersionTarget): vscode.Uri {
  return vscode.Uri.from({
    scheme: VERSION_SCHEME,
    path: `/${t.runId}/step-${t.order}/${t.kind}/${t.path} (${suffix(t.kind, t.order)})`,
  });
}

export function parseVersionUri(uri: vscode.Uri): VersionTarget | undefined {
  const m = /^\/([a-z0-9-]+)\/step-(\d+)\/(gold|recorded|submitted)\/(.+) \(([^)]*)\)$/.exec(uri.path);
  if (!m) return undefined;
  const kind = m[3] as VersionKind;
  const order = Number(m[2]);
  return m[5] === suffix(kind, order) ? { runId: m[1], order, kind, path: m[4] } : undefined;
}

export class VersionDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly services: ChainLensServices) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const t = parseVersionUri(uri);
    const run = this.services.run;
    if (!t) return `Not a ChainLens file version: ${uri.toString()}\n`;
    if (!run || run.state.runId !== t.runId) return `Run ${t.runId} is not the open run of this window.\n`;
    this.services.disclosure.require('goldDocuments', `The ${t.kind} version of ${t.path}`);
    if (!vscode.workspace.isTrusted)
      return 'Restricted Mode: this version is read with git, which ChainLens does not run in an untrusted folder. Trust the folder to see it.\n';
    const v = await fileVersion(run, t.order, t.kind, t.path);
    return 'text' in v ? v.text : `${v.missing}\n`;
  }

  /** A run change (e.g. a re-submitted step) can change every version: refresh the open ones. */
  refreshOpen(): void {
    for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === VERSION_SCHEME) this.changed.fire(d.uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
