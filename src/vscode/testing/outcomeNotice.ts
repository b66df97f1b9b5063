// What Run Step Tests says when it is done, where the person is looking: a notification with the
// verdict and both buckets ("Step 1 tests (your work): unresolved · F2P 2/5 · P2P 22/22"), and a
// button that lists the failed tests, each opening where its failure is (its definition when
// the work tree has it, else its line in the test log). The Testing view and the Problems panel
// hold the same results, but neither is necessarily on screen.
import * as vscode from 'vscode';
import type { StepEvaluation } from '../../protocol/evaluation';
import { failedTests, outcomeText, type FailedTest } from '../evaluation/messages';
import { failureLine } from './logExcerpt';
import { EXACT_LOCATION, type StepTestItems } from './testTree';

const SHOW_FAILURES = 'Show Failures';

/** Shows the outcome; resolves when the notification is answered or dismissed. */
export async function showOutcome(
  evaluation: StepEvaluation,
  source: 'worktree' | 'submitted',
  entry: StepTestItems | undefined,
  /** False at a study's `summary` feedback level: counts, no test names, no log. */
  full: boolean,
  log: () => string,
): Promise<void> {
  const failures = full ? failedTests(evaluation) : [];
  const text = outcomeText(evaluation, source);
  if (evaluation.status === 'resolved') {
    await vscode.window.showInformationMessage(text);
    return;
  }
  const actions = !full ? [] : failures.length ? [SHOW_FAILURES, 'Show Log'] : ['Show Log'];
  const choice = await vscode.window.showWarningMessage(text, ...actions);
  if (choice === 'Show Log')
    await vscode.commands.executeCommand('chainlens.showTestLog', { kind: 'step', order: evaluation.order });
  if (choice === SHOW_FAILURES) await pickFailure(evaluation, failures, entry, log());
}

async function pickFailure(
  evaluation: StepEvaluation,
  failures: FailedTest[],
  entry: StepTestItems | undefined,
  log: string,
): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    failures.map((f) => ({ label: f.testId, description: `${f.bucket} · ${f.status}`, failure: f })),
    { title: `Step ${evaluation.order}: ${failures.length} failed test(s)`, placeHolder: 'Open where a test failed' },
  );
  if (!picked) return;
  const item = entry?.tests.get(picked.failure.testId);
  if (item?.uri && item.range && EXACT_LOCATION.has(item)) {
    await vscode.window.showTextDocument(item.uri, { selection: item.range });
    return;
  }
  const line = failureLine(log, picked.failure.testId) ?? 0;
  await vscode.window.showTextDocument(vscode.Uri.file(evaluation.log_path), {
    selection: new vscode.Range(line, 0, line, 0),
  });
}
