import * as vscode from 'vscode';
import { GROUP_NAMES, groupOf } from '../../core/labels/taxonomy';
import { DRIFT_LABELS, type DriftLabel } from '../../protocol/labels';
import { digitOf, labelForDigit } from './labelDigits';

interface LabelItem extends vscode.QuickPickItem {
  readonly driftLabel?: DriftLabel;
  readonly skip?: boolean;
}

/**
 * One of the ten labels (docs/reference/drift-taxonomy.md), typed with a digit or picked; the suggestion is
 * preselected. Resolves 'skip' when the person skips, undefined when they stop (Escape).
 */
export function pickLabel(options: {
  title: string;
  suggested?: DriftLabel;
  suggestionReason?: string;
  allowSkip?: boolean;
}): Promise<DriftLabel | 'skip' | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<LabelItem>();
    const items: LabelItem[] = DRIFT_LABELS.map((l, i) => ({
      label: `${digitOf(i)}  ${l}`,
      description: `${groupOf(l)} ${GROUP_NAMES[groupOf(l)]}${l === options.suggested ? ' · suggested' : ''}`,
      detail: l === options.suggested ? options.suggestionReason : undefined,
      driftLabel: l,
    }));
    if (options.allowSkip)
      items.push({ label: '$(debug-step-over)  Skip', description: 'leave this one unlabelled', skip: true });
    qp.items = items;
    qp.title = options.title;
    qp.placeholder = 'Type a digit (1-9, 0) or pick a drift label; Enter accepts the suggestion';
    qp.ignoreFocusOut = true;
    const pre = items.find((i) => i.driftLabel === options.suggested);
    if (pre) qp.activeItems = [pre];
    let done = false;
    const finish = (v: DriftLabel | 'skip' | undefined) => {
      if (done) return;
      done = true;
      resolve(v);
      qp.dispose();
    };
    qp.onDidChangeValue((value) => {
      const l = labelForDigit(value.trim());
      if (l) finish(l);
    });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      finish(item?.skip ? 'skip' : item?.driftLabel);
    });
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}
