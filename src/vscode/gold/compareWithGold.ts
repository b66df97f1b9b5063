// Compare with Gold: the step's patch next to the gold patch in VS Code's diff editor. Both are
// read-only virtual documents (chainlens-patch: scheme), never files in the work tree:
//   chainlens-patch:/<run>/step-<k>/gold.diff       the chain's gold patch
//   chainlens-patch:/<run>/step-<k>/yours.diff      the step's patch: start..end once submitted,
//                                                   start..work tree (uncommitted too) while current
import * as vscode from 'vscode';
import { isStepArg } from '../chainView/chainTree';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';

export const PATCH_SCHEME = 'chainlens-patch';

type PatchKind = 'gold' | 'yours';

export function patchUri(runId: string, order: number, kind: PatchKind): vscode.Uri {
  return vscode.Uri.from({ scheme: PATCH_SCHEME, path: `/${runId}/step-${order}/${kind}.diff` });
}

function parsePatchUri(uri: vscode.Uri): { runId: string; order: number; kind: PatchKind } | undefined {
  const m = /^\/([a-z0-9-]+)\/step-(\d+)\/(gold|yours)\.diff$/.exec(uri.path);
  return m ? { runId: m[1], order: Number(m[2]), kind: m[3] as PatchKind } : undefined;
}

class PatchDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Set<string>();

  constructor(private readonly services: ChainLensServices) {}

  /** The work-tree side changes as the person edits: refresh open "yours" documents on save and run change. */
  refreshYours(): void {
    for (const key of this.open) {
      const uri = vscode.Uri.parse(key);
      if (parsePatchUri(uri)?.kind === 'yours') this.changed.fire(uri);
    }
  }

  forget(uri: vscode.Uri): void {
    this.open.delete(uri.toString());
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const target = parsePatchUri(uri);
    const run = this.services.run;
    if (!target) return `Not a ChainLens patch: ${uri.toString()}\n`;
    if (!run || run.state.runId !== target.runId) return `Run ${target.runId} is not the open run of this window.\n`;
    this.services.disclosure.require('goldDocuments', 'The gold patch');
    this.open.add(uri.toString());
    const index = run.state.steps.findIndex((s) => s.order === target.order);
    if (index < 0) return `The chain has no step ${target.order}.\n`;
    if (target.kind === 'gold') return run.chain.steps[index].goldPatch;
    const step = run.state.steps[index];
    const git = run.workspace.git;
    if (!vscode.workspace.isTrusted)
      return 'Restricted Mode: your side of the comparison needs git, which ChainLens does not run in an untrusted folder. Trust the folder to see it.\n';
    if (!step.start) return `Step ${step.order} has not started yet.\n`;
    if (step.end) return (await git.diff(step.start, step.end)) || `Step ${step.order} changed nothing.\n`;
    return (await git.diffWorkTree(step.start)) || `No changes yet: edit the work tree to solve step ${step.order}.\n`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerCompareWithGold(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const documents = new PatchDocuments(services);
  context.subscriptions.push(
    documents,
    vscode.workspace.registerTextDocumentContentProvider(PATCH_SCHEME, documents),
    vscode.workspace.onDidSaveTextDocument(() => documents.refreshYours()),
    vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === PATCH_SCHEME && documents.forget(d.uri)),
    services.onDidChangeRun(() => documents.refreshYours()),
    vscode.commands.registerCommand(
      'chainlens.compareWithGold',
      guarded(services.output, 'Compare with Gold', async (arg?: unknown) => {
        const run = services.run;
        if (!run) throw new Error('No chain is open.');
        services.disclosure.require('goldDocuments', 'Compare with Gold');
        const order = isStepArg(arg)
          ? arg.order
          : (run.state.currentStep ?? run.state.steps[run.state.steps.length - 1].order);
        const step = run.state.steps.find((s) => s.order === order);
        if (!step) throw new Error(`The chain has no step ${order}.`);
        if (step.status === 'pending')
          throw new Error(`Step ${order} has not started yet: there is nothing to compare.`);
        const yours =
          step.status === 'current'
            ? 'your work'
            : step.author.kind === 'human'
              ? 'your patch'
              : `${step.author.kind} patch`;
        await vscode.commands.executeCommand(
          'vscode.diff',
          patchUri(run.state.runId, order, 'gold'),
          patchUri(run.state.runId, order, 'yours'),
          `Step ${order}: gold ↔ ${yours}`,
          { preview: true } satisfies vscode.TextDocumentShowOptions,
        );
      }),
    ),
  );
}
