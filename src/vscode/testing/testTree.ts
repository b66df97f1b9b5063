// The Testing view's items for the active run: chain -> step -> its FAIL_TO_PASS and PASS_TO_PASS
// tests, tagged F2P / P2P. Tests of the hidden test patch exist only in the container, so an item
// gets a source location only when its test function is already in the work tree.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChainStep } from '../../protocol/chain';
import type { LogParserName } from '../../protocol/grading';
import { logParserFor } from '../../core/evaluation/stepSpec';
import type { ChainRunSnapshot } from '../services';
import { splitTestId } from './logExcerpt';
import { testItemLabel, truncatedIdNote } from './testIdPath';

export const F2P_TAG = new vscode.TestTag('F2P');
export const P2P_TAG = new vscode.TestTag('P2P');

export interface StepTestItems {
  step: vscode.TestItem;
  /** Test id (as in FAIL_TO_PASS / PASS_TO_PASS) -> item. */
  tests: Map<string, vscode.TestItem>;
}

/** Items whose range is the test's own definition (not just its file): failures point there. */
export const EXACT_LOCATION = new WeakSet<vscode.TestItem>();

export const stepItemId = (order: number): string => `step-${order}`;
export const chainItemId = (runId: string): string => `chain-${runId}`;

/** Finds `def <name>(` in a test file once per file, for "Go to Test" and inline failure peeks. */
class TestLocator {
  private readonly files = new Map<string, string[] | null>();

  constructor(private readonly dir: string) {}

  locate(testId: string): { uri: vscode.Uri; range: vscode.Range; exact: boolean } | undefined {
    const { file, name } = splitTestId(testId);
    if (!file || !/\.py$/.test(file)) return undefined;
    let lines = this.files.get(file);
    if (lines === undefined) {
      const path = join(this.dir, file);
      lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n') : null;
      this.files.set(file, lines);
    }
    if (!lines) return undefined;
    const fn = name.replace(/\[.*$/, '');
    const def = new RegExp(`^\\s*(?:async\\s+)?def ${fn}\\(`);
    const line = lines.findIndex((l) => def.test(l));
    const uri = vscode.Uri.file(join(this.dir, file));
    // A test the hidden test patch adds is not in the file yet: the item still opens its file (at
    // the top), so double-clicking it does something; its failures point at the log instead.
    if (line < 0) return { uri, range: new vscode.Range(0, 0, 0, 0), exact: false };
    return { uri, range: new vscode.Range(line, 0, line, lines[line].length), exact: true };
  }
}

function addTests(
  controller: vscode.TestController,
  parent: vscode.TestItem,
  step: ChainStep,
  locator: TestLocator,
  out: Map<string, vscode.TestItem>,
  parser: LogParserName,
): void {
  const buckets: [string[], vscode.TestTag, string][] = [
    [step.failToPass, F2P_TAG, '0'],
    [step.passToPass, P2P_TAG, '1'],
  ];
  for (const [ids, tag, sortPrefix] of buckets) {
    ids.forEach((testId, i) => {
      const where = locator.locate(testId);
      const item = controller.createTestItem(`${parent.id}/${testId}`, testItemLabel(testId, parser), where?.uri);
      item.range = where?.range;
      if (where?.exact) EXACT_LOCATION.add(item);
      // The only text VS Code shows on hovering a test (its tooltip) is the description, when set:
      // an id cut short reads as a bug unless it says where the cut comes from.
      const cut = truncatedIdNote(testId);
      if (cut) item.description = cut;
      item.tags = [tag];
      // Otherwise no description: the Test Explorer reads an item's description instead of its
      // label to screen readers, and every test would sound alike. F2P/P2P are tags (@chainlens:F2P).
      item.sortText = `${sortPrefix}${String(i).padStart(6, '0')}`;
      parent.children.add(item);
      out.set(testId, item);
    });
  }
}

/** Replaces the controller's items with the run's chain, steps and tests. */
export function buildTestTree(
  controller: vscode.TestController,
  run: ChainRunSnapshot | undefined,
  /** False while a study withholds the hidden tests' ids (docs/study.md): steps only, no F2P/P2P items. */
  withTestIds = true,
): Map<number, StepTestItems> {
  const steps = new Map<number, StepTestItems>();
  if (!run) {
    controller.items.replace([]);
    return steps;
  }
  const { chain, state } = run;
  const locator = new TestLocator(run.dir);
  const root = controller.createTestItem(
    chainItemId(state.runId),
    `${chain.id} (${state.mode === 'seq' ? 'Seq' : 'Oracle'})`,
  );
  chain.steps.forEach((chainStep) => {
    const item = controller.createTestItem(
      stepItemId(chainStep.order),
      `Step ${chainStep.order}: ${chainStep.instanceId}`,
    );
    item.sortText = String(chainStep.order).padStart(6, '0');
    const tests = new Map<string, vscode.TestItem>();
    if (withTestIds)
      addTests(controller, item, chainStep, locator, tests, logParserFor(chainStep.logParser, chain.repo));
    root.children.add(item);
    steps.set(chainStep.order, { step: item, tests });
  });
  controller.items.replace([root]);
  return steps;
}
