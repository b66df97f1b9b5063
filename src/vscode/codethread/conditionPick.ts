// Opening a CodeThread task: the four authorship conditions instead of free-form authors.
import * as vscode from 'vscode';
import { conditionAuthors } from '../../core/codethread/conditions';
import type { Condition } from '../../protocol/codethread';

const CONDITIONS: { condition: Condition; label: string; detail: string }[] = [
  {
    condition: 'HH',
    label: 'HH: gold, gold',
    detail: "The original developer's patches for both steps (the human baseline).",
  },
  { condition: 'HA', label: 'HA: gold, then an agent', detail: "Step 1 is gold; step 2 is an agent's recorded patch." },
  { condition: 'AA', label: 'AA: an agent, then an agent', detail: "Both steps are an agent's recorded patches." },
  {
    condition: 'AH',
    label: 'AH: an agent, then you',
    detail: "Step 1 is an agent's recorded patch; you solve step 2 on it.",
  },
];

/** The authors spec of the condition a person picks; undefined when they cancel. */
export async function pickConditionAuthors(): Promise<string | undefined> {
  const pick = await vscode.window.showQuickPick(
    CONDITIONS.map((c) => ({ label: c.label, detail: c.detail, condition: c.condition })),
    { title: 'Open Chain (4/4): CodeThread condition', ignoreFocusOut: true },
  );
  return pick ? conditionAuthors(pick.condition) : undefined;
}
