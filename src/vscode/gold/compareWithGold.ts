// Compare with Gold: the step's patch next to the gold patch in VS Code's diff editor. Both are
// read-only virtual documents (the chainlens: scheme, src/vscode/documents), never files in the work tree:
//   chainlens:/patch/<run>/step-<k>/gold.diff       the chain's gold patch
//   chainlens:/patch/<run>/step-<k>/yours.diff      the step's patch: start..end once submitted,
//                                                   start..work tree (uncommitted too) while current
import * as vscode from 'vscode';
import { isStepArg } from '../commandArgs';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';
import { documentUri } from '../documents/chainLensDocuments';
import type { PatchSide } from '../documents/documentRef';

export function registerCompareWithGold(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const patchUri = (runId: string, step: number, side: PatchSide) => documentUri({ kind: 'patch', runId, step, side });
  context.subscriptions.push(
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
