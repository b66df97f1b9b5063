// The "Chain" view of the ChainLens container: the chain, and under it every step with its
// status icon, author and time spent. Clicking a step shows its problem statement.
import * as vscode from 'vscode';
import type { ChainLensServices, ChainRunSnapshot } from '../services';
import { modeLabel } from '../services';
import type { StepState } from '../../protocol/run';
import { presentStep, shortInstanceId } from './stepPresentation';
import type { StepCommandArg } from '../commandArgs';

export type ChainTreeNode = { kind: 'chain' } | { kind: 'step'; order: number };

class ChainTreeProvider implements vscode.TreeDataProvider<ChainTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ChainTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<number, ChainTreeNode>();
  private readonly chainNode: ChainTreeNode = { kind: 'chain' };

  constructor(private readonly services: ChainLensServices) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  stepNode(order: number): ChainTreeNode {
    let node = this.nodes.get(order);
    if (!node) this.nodes.set(order, (node = { kind: 'step', order }));
    return node;
  }

  getParent(node: ChainTreeNode): ChainTreeNode | undefined {
    return node.kind === 'step' ? this.chainNode : undefined;
  }

  getChildren(node?: ChainTreeNode): ChainTreeNode[] {
    const run = this.services.run;
    if (!run) return [];
    if (!node) return [this.chainNode];
    if (node.kind === 'chain') return run.state.steps.map((s) => this.stepNode(s.order));
    return [];
  }

  getTreeItem(node: ChainTreeNode): vscode.TreeItem {
    const run = this.services.run!;
    return node.kind === 'chain'
      ? this.chainItem(run)
      : this.stepItem(
          run,
          run.state.steps.find((s) => s.order === node.order)!,
        );
  }

  private chainItem(run: ChainRunSnapshot): vscode.TreeItem {
    const { state, chain } = run;
    const item = new vscode.TreeItem(chain.id, vscode.TreeItemCollapsibleState.Expanded);
    const where = state.currentStep === null ? 'complete' : `step ${state.currentStep}/${chain.steps.length}`;
    item.id = `chain:${state.runId}`;
    item.iconPath = new vscode.ThemeIcon('list-ordered');
    item.description = `${modeLabel(state.mode)} · ${where}`;
    item.contextValue = 'chain';
    item.tooltip = new vscode.MarkdownString(
      [
        `**${chain.id}**`,
        '',
        `Repository: \`${chain.repo}\` at \`${chain.baseCommit.slice(0, 12)}\``,
        `Run: \`${state.runId}\`, ${modeLabel(state.mode)} mode, ${where}`,
        `Work tree: \`${run.dir}\` (branch \`${state.branch}\`)`,
        `Image: \`${chain.dockerImage ?? 'none named'}\``,
        `Chain file: \`${state.chainFile}\``,
      ].join('  \n'),
    );
    return item;
  }

  private stepItem(run: ChainRunSnapshot, step: StepState): vscode.TreeItem {
    const evaluation = this.services.evaluation;
    // A study without test feedback: the tree shows progress, not grades (docs/study.md).
    const graded = this.services.disclosure.current.testResults !== 'none';
    const look = presentStep(
      step,
      graded
        ? { submitted: evaluation.latest(step.order, 'submitted'), worktree: evaluation.latest(step.order, 'worktree') }
        : {},
      Date.now(),
    );
    const item = new vscode.TreeItem(
      `${step.order}. ${shortInstanceId(step.instanceId, run.chain.repo)}`,
      vscode.TreeItemCollapsibleState.None,
    );
    item.id = `step:${run.state.runId}:${step.order}`;
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
    item.description = look.description;
    item.tooltip = new vscode.MarkdownString(look.tooltip.join('  \n'));
    item.accessibilityInformation = {
      label: `Step ${step.order}, ${step.instanceId}, ${look.statusText}, ${look.description}`,
      role: 'treeitem',
    };
    const human = step.author.kind === 'human' || step.author.kind === 'agent-live';
    const evaluated = evaluation.latest(step.order) ? '.evaluated' : '';
    item.contextValue = `step.${step.status === 'current' ? 'current' : step.status === 'pending' ? 'pending' : 'submitted'}${human ? '.human' : ''}${evaluated}`;
    const arg: StepCommandArg = { kind: 'step', order: step.order };
    item.command = { command: 'chainlens.showProblemStatement', title: 'Show Problem Statement', arguments: [arg] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerChainView(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const provider = new ChainTreeProvider(services);
  const view = vscode.window.createTreeView('chainlens.chain', { treeDataProvider: provider, showCollapseAll: false });
  const updateBadge = (): void => {
    const run = services.run;
    view.message =
      run && run.state.currentStep === null
        ? `Run ${run.state.runId} is complete: every step has been submitted.`
        : undefined;
  };
  // Time spent on the current step ticks while the view is visible.
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    clearInterval(timer);
    timer = undefined;
    if (view.visible && services.run?.state.currentStep != null) timer = setInterval(() => provider.refresh(), 30_000);
  };
  context.subscriptions.push(
    provider,
    view,
    services.onDidChangeRun(() => {
      provider.refresh();
      updateBadge();
      tick();
    }),
    services.evaluation.onDidEvaluate(() => provider.refresh()),
    services.disclosure.onDidChange(() => provider.refresh()),
    view.onDidChangeVisibility(tick),
    { dispose: () => clearInterval(timer) },
    vscode.commands.registerCommand('chainlens.refresh', async () => {
      await services.runs.reload();
      provider.refresh();
    }),
  );
  updateBadge();
  tick();
}
