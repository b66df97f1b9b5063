// Compare Step with Gold: every file the step or its gold patch changes, each as gold's version
// against the step's, in VS Code's multi-file diff editor (the changes view), beside the problem
// statement. Gold's side is a read-only version document (the chainlens: scheme,
// src/vscode/documents); the step's side is the work tree's file itself while the step is current
// (edit it right there), else the file as the step's submitted commit left it.
import * as vscode from 'vscode';
import { goldShown, type Disclosure } from '../../core/study/disclosure';
import { stepPatchText } from '../../app/fileVersions/stepPatch';
import type { ChainRunSnapshot } from '../../app/run/snapshot';
import { parsePatch } from '../../core/patch/parse';
import { filePath } from '../../core/patch/types';
import { isStepArg } from '../commandArgs';
import { documentUri } from '../documents/chainLensDocuments';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';

/** The paths a patch touches (a missing patch, e.g. no change yet, touches none). */
async function pathsOf(run: ChainRunSnapshot, order: number, side: 'gold' | 'yours'): Promise<string[]> {
  const patch = await stepPatchText(run, order, side);
  if (!('text' in patch)) return [];
  return parsePatch(patch.text, side === 'gold' ? `gold patch of step ${order}` : `step ${order}'s patch`).files.map(
    (f) => filePath(f),
  );
}

/** [label, gold's version, the step's version] per file, in path order. */
export async function changesOf(run: ChainRunSnapshot, order: number): Promise<[vscode.Uri, vscode.Uri, vscode.Uri][]> {
  const step = run.state.steps.find((s) => s.order === order)!;
  const paths = new Set([...(await pathsOf(run, order, 'gold')), ...(await pathsOf(run, order, 'yours'))]);
  const runId = run.state.runId;
  return [...paths].sort().map((path) => {
    const workTree = vscode.Uri.joinPath(vscode.Uri.file(run.dir), ...path.split('/'));
    const mine = step.end
      ? documentUri({ kind: 'version', runId, step: order, version: 'submitted', path, titled: true })
      : workTree;
    return [workTree, documentUri({ kind: 'version', runId, step: order, version: 'gold', path, titled: true }), mine];
  });
}

function isProblemStatement(tab: vscode.Tab | undefined): boolean {
  return tab?.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('chainlens.problemStatement');
}

/**
 * The multi-file diff editor opens in the active group. When that group holds the problem
 * statement (its Compare button, the panel just revealed, or the statement behind another tab of
 * that group), go to another group, or make one to its left, so the comparison opens beside the
 * statement instead of over it. Any tab of the group counts, not only the active one: a reveal
 * that has not reached the extension host yet still leaves the statement's tab in the group.
 */
async function focusBesideProblemStatement(): Promise<void> {
  const groups = vscode.window.tabGroups;
  if (!groups.activeTabGroup.tabs.some(isProblemStatement)) return;
  const other = groups.all.find((g) => g !== groups.activeTabGroup && !g.tabs.some(isProblemStatement));
  const focus = [
    'workbench.action.focusFirstEditorGroup',
    'workbench.action.focusSecondEditorGroup',
    'workbench.action.focusThirdEditorGroup',
    'workbench.action.focusFourthEditorGroup',
  ][(other?.viewColumn ?? 0) - 1];
  await vscode.commands.executeCommand(focus ?? 'workbench.action.newGroupLeft');
}

/**
 * From the palette there is no step in hand: with one started step that is it; with several (a
 * submitted step and the current one, say) the person says which, the current step first. A step
 * whose gold is withheld (the person's own, in a study every step) is named so in the pick; when
 * every started step's is withheld there is nothing to pick, and the refusal comes at once.
 */
async function askStep(run: ChainRunSnapshot, disclosure: Disclosure): Promise<number | undefined> {
  const started = run.state.steps.filter((s) => s.start !== null);
  if (started.length <= 1 || started.every((s) => !goldShown(disclosure, s.order)))
    return run.state.currentStep ?? run.state.steps[run.state.steps.length - 1].order;
  const current = started.find((s) => s.order === run.state.currentStep);
  const ordered = current ? [current, ...started.filter((s) => s !== current).reverse()] : started.reverse();
  const picked = await vscode.window.showQuickPick(
    ordered.map((s) => ({
      label: `Step ${s.order}: ${s.instanceId}`,
      description: `${s === current ? 'current (your work)' : 'submitted'}${goldShown(disclosure, s.order) ? '' : ' · gold hidden until you submit or reveal it'}`,
      order: s.order,
    })),
    { title: 'Compare Step with Gold', placeHolder: 'Which step do you want to compare with its gold patch?' },
  );
  return picked?.order;
}

export function registerCompareWithGold(context: vscode.ExtensionContext, services: ChainLensServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'chainlens.compareWithGold',
      guarded(services.output, 'Compare Step with Gold', async (arg?: unknown) => {
        const run = services.run;
        if (!run) throw new Error('No chain is open.');
        const order = isStepArg(arg) ? arg.order : await askStep(run, services.disclosure.current);
        if (order === undefined) return;
        services.disclosure.require('goldDocuments', 'Compare Step with Gold', order);
        const step = run.state.steps.find((s) => s.order === order);
        if (!step) throw new Error(`The chain has no step ${order}.`);
        if (step.status === 'pending' || !step.start)
          throw new Error(`Step ${order} has not started yet: there is nothing to compare.`);
        if (!vscode.workspace.isTrusted)
          throw new Error(
            "Restricted Mode: the step's side of the comparison is read with git, which ChainLens does not run in an untrusted folder. Trust the folder to compare.",
          );
        const yours =
          step.status === 'current'
            ? 'your work'
            : step.author.kind === 'human'
              ? 'your patch'
              : `${step.author.kind} patch`;
        const changes = await changesOf(run, order);
        await focusBesideProblemStatement();
        await vscode.commands.executeCommand('vscode.changes', `Step ${order}: gold ↔ ${yours}`, changes);
      }),
    ),
  );
}
