// Annotations and drift labels in a real VS Code (code-server 4.104 in Chromium): open the demo
// chain as AH (step 1 = the demo agent's recorded, undershooting patch), look at parse.py with
// step 1's drift suggestion, start step 2 with an edit outside gold (overshoot) and see the gold
// changes it leaves alone (undershoot, hover with the gold hunk), the Problems panel mirror, then
// label the changed symbols with digit keys and see the resolved label thread.
// Screenshots: test-results/annotations-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  openChainLensWorkbench,
  openFile,
  runCommand,
  screenshot,
  hoverUntil,
  typeInEditor,
  webviewFrame,
  type ChainLensWorkbench,
} from './harness';
import { acceptInFileDialog } from './harness/fileDialog';
import { lineOf, makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';
import { readPointer, stateDirOf } from '../../src/infra/run/stateDir';

/** The run files of the work tree, in its state folder (outside the work tree, docs/run-state.md). */
function runsFolder(workTree: string): string {
  return join(stateDirOf(readPointer(join(workTree, '.git'))!), 'runs');
}

async function pickQuickItem(page: Page, text: string | RegExp): Promise<void> {
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: text });
  await row.first().waitFor({ state: 'visible', timeout: 20_000 });
  await row.first().click();
}

async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
}

/** Gutter marks of ChainLens decorations (data: SVG icons) in the visible editor. */
function gutterMarks(page: Page) {
  return page.locator('.editor-instance .cgmr');
}

async function waitForFile(path: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`${path} was not written`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('ChainLens annotations and drift labels in VS Code', () => {
  let fx: ChainLensWorkbench<DemoWorkspace>;
  before(async () => {
    fx = await openChainLensWorkbench({ workspace: () => makeDemoWorkspace(), viewport: { width: 1500, height: 950 } });
  });
  after(() => fx?.close());

  it("opens the demo chain as AH and shows step 1's drift suggestion in parse.py", async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Open Chain…');
    await pickQuickItem(page, 'invoicekit.chain.json');
    await pickQuickItem(page, "This workspace's repository");
    await pickQuickItem(page, /^Seq/);
    await pickQuickItem(page, "An agent's patch for step 1, then you");
    await pickQuickItem(page, 'demo-agent.predictions.jsonl');
    await page
      .getByRole('treeitem', { name: /^Step 2, chainlens-demo__invoicekit-102, current/ })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    // Step 2 is the person's own: its gold is hidden until they ask for it (this test reviews it).
    await runCommand(page, 'ChainLens: Reveal Gold for This Step');
    // Step 2 is current: its marks are shown; step 1's only when asked for.
    await runCommand(page, 'ChainLens: Annotate Step…');
    await pickQuickItem(page, /^Step 1/);
    await openFile(page, 'invoicekit/parse.py');
    await goToLine(page, lineOf(join(fx.workspace.dir, 'invoicekit', 'parse.py'), 'def parse_amount'));
    await gutterMarks(page).first().waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'annotations-01-step1-drift');
    // The drift suggestion is mirrored in the Problems panel, in plain words, with its label as the code.
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const row = page
      .locator('.markers-panel .monaco-list-row')
      .filter({ hasText: /Differs from gold\? parse_amount checks its input differently/ });
    await row.first().waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await row.first().innerText(), /INPUT GATING/);
    await screenshot(page, 'annotations-02-problems-step1');
    await runCommand(page, 'View: Hide Panel');
    await runCommand(page, 'ChainLens: Annotate Step…');
    await pickQuickItem(page, /^Automatic/);
  });

  it('step 2: an edit outside gold is overshoot, the gold changes left alone are undershoot with the gold hunk on hover', async () => {
    const page = fx.page;
    await openFile(page, 'invoicekit/parse.py');
    // parse_decimal's `cleaned = text.strip()`: the one followed by the _DECIMAL_RE check.
    const lines = readFileSync(join(fx.workspace.dir, 'invoicekit', 'parse.py'), 'utf8').split('\n');
    const target =
      lines.findIndex((l, i) => l.includes('cleaned = text.strip()') && lines[i + 1]?.includes('_DECIMAL_RE')) + 1;
    assert.ok(target > 0);
    await goToLine(page, target);
    await page.keyboard.press('End');
    await typeInEditor(page, '\n    cleaned = cleaned.replace(" ", "")');
    await page.keyboard.press('Control+S');
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    await runCommand(page, 'View: Toggle Maximized Panel');
    const problems = page.locator('.markers-panel .monaco-list-row');
    await problems
      .filter({ hasText: /Not in gold: this step changes parse_decimal/ })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await problems
      .filter({ hasText: /Missing from this step\? The gold patch changes _to_decimal/ })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'annotations-03-problems-step2');
    await runCommand(page, 'View: Toggle Maximized Panel');
    await runCommand(page, 'View: Hide Panel');
    await openFile(page, 'invoicekit/parse.py');
    await goToLine(page, lineOf(join(fx.workspace.dir, 'invoicekit', 'parse.py'), 'def _to_decimal'));
    await screenshot(page, 'annotations-04-step2-annotations');
    // Hover the body's text (the mouse must be over text for the editor to show hovers).
    const body = page
      .locator('.editor-instance .view-line')
      .filter({ hasText: 'return Decimal(number.replace' })
      .first();
    const hover = page.locator('.monaco-hover').filter({ hasText: /Missing from this step\?/ });
    await hoverUntil(page, body, hover, { position: { x: 90, y: 8 } });
    await page.waitForTimeout(1000); // the gold hunk's hover part has arrived
    const text = await hover.first().innerText();
    assert.match(text, /relative to gold, not proof of a bug/i);
    assert.match(text, /_decimal_mark/, 'the hover shows the gold hunk');
    await screenshot(page, 'annotations-05-undershoot-hover');
    await page.keyboard.press('Escape');
  });

  it('labels the changed symbols with digit keys: a resolved label thread, saved as JSONL next to the run', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Label Changed Symbols');
    const qp = page.locator('.quick-input-widget');
    await qp.filter({ hasText: /Label 1\/\d+: parse_decimal/ }).waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'annotations-06-label-quickpick');
    await page.keyboard.type('5');
    // Stop after the first symbol.
    await page.waitForTimeout(500);
    if (await qp.isVisible()) await page.keyboard.press('Escape');
    const thread = page.locator('.review-widget').filter({ hasText: 'SILENT FALLBACK' });
    await thread.first().waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'annotations-07-label-thread');
    const runs = runsFolder(fx.workspace.dir);
    const file = readdirSync(runs).find((f) => f.endsWith('.labels.jsonl'));
    assert.ok(file && existsSync(join(runs, file)), 'labels file next to the run');
    const records = readFileSync(join(runs, file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { label: string; symbol: string; step: number; source: string });
    assert.deepEqual(
      records.map((r) => [r.step, r.symbol, r.label, r.source]),
      [[2, 'parse_decimal', 'SILENT FALLBACK', 'human']],
    );
  });

  it("exports the labels and shows Cohen's kappa against a second labeller's file", async () => {
    const page = fx.page;
    const runs = runsFolder(fx.workspace.dir);
    const mine = join(
      runs,
      readdirSync(runs).find((f) => f.endsWith('.labels.jsonl'))!,
    );
    const exported = join(fx.workspace.dir, '..', 'exported.labels.jsonl');
    await runCommand(page, 'ChainLens: Export Drift Labels');
    await acceptInFileDialog(page, exported);
    await waitForFile(exported);
    assert.equal(readFileSync(exported, 'utf8'), readFileSync(mine, 'utf8'));
    // A second labeller who saw the same change as an algorithm change.
    const other = join(fx.workspace.dir, '..', 'other.labels.jsonl');
    const rec = JSON.parse(readFileSync(mine, 'utf8').trim()) as Record<string, unknown>;
    writeFileSync(
      other,
      `${JSON.stringify({ ...rec, label: 'ALGORITHM', labeller: 'bo', rationale: 'different normalisation' })}\n`,
    );
    await runCommand(page, 'ChainLens: Drift Label Agreement…');
    await acceptInFileDialog(page, exported);
    await acceptInFileDialog(page, other);
    // The report opens as a markdown document and its preview.
    await page
      .locator('.tab', { hasText: /Preview/ })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForTimeout(1500);
    await screenshot(page, 'annotations-08-agreement');
    const preview = await webviewFrame(page, /Drift label agreement/);
    await preview
      .getByText(/Cohen's kappa/)
      .first()
      .waitFor({ timeout: 20_000 });
    await preview
      .getByText(/n = 1 targets labelled in both/)
      .first()
      .waitFor();
  });

  it('edits a label from its thread, then removes it', async () => {
    const page = fx.page;
    const runs = runsFolder(fx.workspace.dir);
    const mine = join(
      runs,
      readdirSync(runs).find((f) => f.endsWith('.labels.jsonl'))!,
    );
    await openFile(page, 'invoicekit/parse.py');
    await runCommand(page, 'Comments: Focus on Comments View');
    await page.locator('.monaco-list-row', { hasText: 'SILENT FALLBACK' }).first().click();
    const thread = page.locator('.review-widget').filter({ hasText: 'SILENT FALLBACK' }).first();
    await thread.waitFor({ state: 'visible', timeout: 20_000 });
    await thread.locator('.review-comment').first().hover();
    await thread.getByRole('button', { name: 'Edit drift label' }).click();
    await page
      .locator('.quick-input-widget')
      .filter({ hasText: /Change the drift label of parse_decimal/ })
      .waitFor({ state: 'visible', timeout: 20_000 });
    await page.keyboard.type('3');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page
      .locator('.quick-input-widget')
      .filter({ hasText: 'Rationale' })
      .waitFor({ state: 'visible', timeout: 20_000 });
    await input.fill('strips spaces: a different normalisation than gold');
    await page.keyboard.press('Enter');
    const edited = page.locator('.review-widget').filter({ hasText: 'ALGORITHM' }).first();
    await page.locator('.monaco-list-row', { hasText: 'ALGORITHM' }).first().click();
    await edited.waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'annotations-09-label-edited');
    const after = readFileSync(mine, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { label: string; rationale: string });
    assert.deepEqual(
      after.map((r) => [r.label, r.rationale]),
      [['ALGORITHM', 'strips spaces: a different normalisation than gold']],
    );
    await edited.locator('.review-comment').first().hover();
    await edited.getByRole('button', { name: 'Remove drift label' }).click();
    await edited.waitFor({ state: 'hidden', timeout: 20_000 });
    assert.equal(readFileSync(mine, 'utf8'), '');
  });
});
