// The Runs view: one item per batch run directory with its state and counts, then one per
// (source, mode), per chain and per step; a step with a record opens its log and record.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import {
  describeCounts,
  evidenceText,
  evidenceVerdict,
  type ChainSummary,
  type GroupSummary,
  type RunSummary,
  type StepSummary,
} from '../../core/batch';
import type { BatchRunArg, BatchStepArg } from '../commandArgs';
import type { BatchRuns } from './batchRuns';

type Node =
  | BatchRunArg
  | { kind: 'group'; dir: string; group: GroupSummary }
  | { kind: 'chain'; dir: string; group: GroupSummary; chain: ChainSummary }
  // A step's node is itself the BatchStepArg its context-menu commands take (VS Code passes them
  // the node), as a run's node is the BatchRunArg.
  | (BatchStepArg & { group: GroupSummary; chain: ChainSummary; step: StepSummary });

const STATE_ICON = { running: 'sync~spin', finished: 'pass', interrupted: 'debug-pause' } as const;

function stepStatus(s: StepSummary): string {
  if (!s.record) return 'not run yet';
  const status = s.record.infra_failure ? 'infra failure' : s.record.status.replace('_', ' ');
  return s.evidence ? `${status} · chain error, ${evidenceVerdict(s.evidence)}` : status;
}

function stepIcon(s: StepSummary): vscode.ThemeIcon {
  if (!s.record) return new vscode.ThemeIcon('circle-outline');
  if (s.record.infra_failure)
    return new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  return s.record.resolved
    ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
    : new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
}

export class RunsTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly runNodes = new Map<string, Node>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly runs: BatchRuns) {
    // A run's counts changed: refresh that run's subtree only (the item objects are kept, so its
    // expansion state is too); the list itself otherwise.
    this.subscription = runs.onDidChange((dir) => {
      const node = dir === undefined ? undefined : this.runNodes.get(dir);
      this.changed.fire(node);
    });
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      return this.runs.dirs().map((dir) => {
        let n = this.runNodes.get(dir);
        // The item's own element is the argument its context actions receive.
        if (!n) this.runNodes.set(dir, (n = { kind: 'batchRun', dir }));
        return n;
      });
    }
    const entry = this.runs.entry(node.dir);
    if (!('summary' in entry)) return [];
    switch (node.kind) {
      case 'batchRun':
        return entry.summary.groups.map((group) => ({ kind: 'group', dir: node.dir, group }));
      case 'group':
        return fresh(entry, node.group).chains.map((chain) => ({
          kind: 'chain',
          dir: node.dir,
          group: node.group,
          chain,
        }));
      case 'chain': {
        const chain = fresh(entry, node.group).chains.find((c) => c.chainId === node.chain.chainId) ?? node.chain;
        return chain.steps.map((step) => ({
          kind: 'batchStep' as const,
          dir: node.dir,
          id: step.id,
          group: node.group,
          chain,
          step,
        }));
      }
      case 'batchStep':
        return [];
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const C = vscode.TreeItemCollapsibleState;
    switch (node.kind) {
      case 'batchRun': {
        const entry = this.runs.entry(node.dir);
        const item = new vscode.TreeItem(basename(node.dir), C.Collapsed);
        item.id = `run:${node.dir}`;
        item.tooltip = node.dir;
        if (!('summary' in entry)) {
          item.description = 'unreadable';
          item.tooltip = `${node.dir}\n${entry.problem}`;
          item.iconPath = new vscode.ThemeIcon('warning');
          item.contextValue = 'batchRun.unreadable';
          item.collapsibleState = C.None;
          return item;
        }
        const s = entry.summary;
        item.description = `${s.state} · ${describeCounts(s)}`;
        item.iconPath = new vscode.ThemeIcon(STATE_ICON[s.state]);
        item.contextValue = `batchRun.${s.state}${s.infraFailures ? '.infra' : ''}`;
        item.accessibilityInformation = { label: `${item.label as string}, ${item.description}` };
        item.command = { command: 'chainlens.batch.openResults', title: 'Open Results', arguments: [node] };
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(`${node.group.source} · ${node.group.mode}`, C.Collapsed);
        item.id = `group:${node.dir}:${node.group.source}:${node.group.mode}`;
        item.description = describeCounts(node.group);
        item.accessibilityInformation = { label: `${item.label as string}, ${item.description}` };
        item.contextValue = 'batchGroup';
        return item;
      }
      case 'chain': {
        const item = new vscode.TreeItem(node.chain.chainId, C.Collapsed);
        item.id = `chain:${node.dir}:${node.group.source}:${node.group.mode}:${node.chain.chainId}`;
        item.description = describeCounts(node.chain);
        item.accessibilityInformation = { label: `${node.chain.chainId}, ${item.description}` };
        item.contextValue = 'batchChain';
        return item;
      }
      case 'batchStep': {
        const item = new vscode.TreeItem(`step ${node.step.order}`, C.None);
        item.id = `step:${node.dir}:${node.step.id}`;
        item.description = stepStatus(node.step);
        item.tooltip = `${node.step.instanceId} (position ${node.step.position})${node.step.record?.error ? `\n${node.step.record.error}` : ''}${node.step.evidence ? `\nevidence: ${evidenceText(node.step.evidence)}` : ''}`;
        item.iconPath = stepIcon(node.step);
        item.accessibilityInformation = {
          label: `${node.chain.chainId} ${node.group.source} ${node.group.mode} step ${node.step.order}, ${item.description}`,
        };
        // A recorded Seq step after the first has an Oracle twin to compare its start state with.
        item.contextValue = node.step.record
          ? node.group.mode === 'seq' && node.step.position >= 2
            ? 'batchStep.recorded.downstream'
            : 'batchStep.recorded'
          : 'batchStep';
        if (node.step.record)
          item.command = {
            command: 'chainlens.batch.openStep',
            title: 'Open Step Log and Record',
            arguments: [{ kind: 'batchStep', dir: node.dir, id: node.step.id }],
          };
        return item;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** The group as the run's latest summary has it (a node keeps the summary it was made from). */
function fresh(entry: { readonly summary: RunSummary }, group: GroupSummary): GroupSummary {
  return entry.summary.groups.find((g) => g.source === group.source && g.mode === group.mode) ?? group;
}
