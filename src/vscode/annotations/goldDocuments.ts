// The gold version of a file (the step's start + the chain's gold patch) as a read-only virtual
// document: chainlens-gold:/<run>/step-<k>/<path>. Diagnostics point at it as related information.
import * as vscode from 'vscode';
import type { StepAnnotations } from './analysisSource';

export const GOLD_SCHEME = 'chainlens-gold';

export function goldUri(a: Pick<StepAnnotations, 'runId' | 'order'>, file: string): vscode.Uri {
  return vscode.Uri.from({ scheme: GOLD_SCHEME, path: `/${a.runId}/step-${a.order}/${file}` });
}

export class GoldDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly current: () => StepAnnotations | undefined,
    /** The study gate: throws while gold is withheld (docs/study.md). */
    private readonly allowed: () => void = () => {},
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    this.allowed();
    const m = /^\/([a-z0-9-]+)\/step-(\d+)\/(.+)$/.exec(uri.path);
    const a = this.current();
    if (!m) return `Not a ChainLens gold document: ${uri.toString()}\n`;
    if (!a || a.runId !== m[1] || a.order !== Number(m[2]))
      return `Step ${m[2]} of run ${m[1]} is not the annotated step any more; reopen this from a ChainLens annotation.\n`;
    return (await a.goldText(m[3])) ?? `The gold patch of step ${a.order} deletes ${m[3]}.\n`;
  }

  refresh(uris: readonly vscode.Uri[]): void {
    for (const u of uris) this.changed.fire(u);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
