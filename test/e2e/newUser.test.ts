// A new user's first hour on the demo, second round, in one code-server window (one server, one
// page, checks in the order a person meets them): pickers start at the workspace root; Open
// Chain from the walkthrough ("You solve every step"); the low-confidence drift suggestion is in
// the Problems panel and explained on hover of its lines; Run Step Tests says its outcome in a
// notification with a button to the failures, and the tree puts the key fact first; the
// walkthrough ticks "Submit the step" only after the submit; Compare Step with Gold from the
// palette asks which step; the walkthrough opens the demo agent's trajectory; the empty Batch
// Runs view says what to do; Run Batch… asks for several sources, the run's own repository,
// modes and workers; its charts fit a half-width panel and identical Oracle/Seq lines stay
// apart. Screenshots: test-results/new-user-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  openChainLensWorkbench,
  openFile,
  runCommand,
  screenshot,
  hoverUntil,
  typeInEditor,
  waitForNotification,
  webviewFrame,
  type ChainLensWorkbench,
} from './harness';
import { acceptInFileDialog, fileDialogStart } from './harness/fileDialog';
import { makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';

const quick = (page: Page) => page.locator('.quick-input-widget');

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

function problemRows(page: Page) {
  return page.locator('.markers-panel .monaco-list-row');
}

describe('a new user on the demo: results where one looks, pickers at the root, a trajectory, batches', () => {
  let fx: ChainLensWorkbench<DemoWorkspace>;
  let batches: string;
  before(async () => {
    // Batch runs of this user only: the data directory is shared by every e2e file, and the
    // batches another file ran would fill the view a new user sees empty.
    batches = mkdtempSync(join(tmpdir(), 'chainlens-new-user-batches-'));
    fx = await openChainLensWorkbench({
      workspace: () => makeDemoWorkspace(),
      viewport: { width: 1400, height: 900 },
      settings: { 'chainlens.batch.runsFolder': batches },
    });
  });
  after(async () => {
    await fx?.close();
    rmSync(batches, { recursive: true, force: true });
  });

  it("Open Chain's file picker starts at the workspace root, not the active file's folder", async () => {
    const page = fx.page;
    await openFile(page, 'invoicekit/parse.py');
    await runCommand(page, 'ChainLens: Open Chain…');
    await pickQuickItem(page, 'Browse…');
    const path = await fileDialogStart(page);
    assert.equal(path.replace(/\/$/, ''), fx.workspace.dir, `the dialog starts at ${path}`);
    await page.keyboard.press('Escape');
  });

  it('opens the chain from the walkthrough; the walkthrough does not tick Submit before a submit', async () => {
    const page = fx.page;
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await pickQuickItem(page, 'Get started with ChainLens');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Open the demo chain', { exact: true }).first().waitFor({ timeout: 30_000 });
    await walkthrough.getByRole('button', { name: 'Open Chain…' }).first().click();
    await pickQuickItem(page, 'invoicekit.chain.json');
    await pickQuickItem(page, "This workspace's repository");
    await pickQuickItem(page, /^Seq/);
    await pickQuickItem(page, 'You solve every step');
    await page
      .getByRole('treeitem', { name: /^Step 1, chainlens-demo__invoicekit-101, current/ })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    // A person's own step may keep its gold hidden until asked (the disclosure policy): ask.
    await runCommand(page, 'ChainLens: Reveal Gold for This Step', { timeoutMs: 3_000 }).catch(() => undefined);
  });

  it('lists the low-confidence drift suggestion in the Problems panel and explains it on hover of its lines', async () => {
    const page = fx.page;
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const low = problemRows(page).filter({ hasText: /Low confidence/ });
    await low.first().waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await low.first().innerText(), /parse_amount/);
    await runCommand(page, 'View: Hide Panel');
    await openFile(page, 'invoicekit/parse.py');
    const lines = readFileSync(join(fx.workspace.dir, 'invoicekit', 'parse.py'), 'utf8').split('\n');
    // The def line: inside the suggestion's range, outside the undershoot mark's lines.
    const def = lines.findIndex((l) => l.startsWith('def parse_amount(')) + 1;
    assert.ok(def > 0);
    await goToLine(page, def + 2);
    const line = page.locator('.editor-instance .view-line').filter({ hasText: 'def parse_amount(' });
    const hover = page.locator('.monaco-hover').filter({ hasText: /Low confidence/ });
    await hoverUntil(page, line.first(), hover, { position: { x: 160, y: 8 }, shot: 'new-user-05-debug-hover' });
    await screenshot(page, 'new-user-05-low-confidence-drift-hover');
    await page.keyboard.press('Escape');
  });

  it('Run Step Tests says the outcome in a notification, with a button to the failures; the tree puts F2P first', async () => {
    const page = fx.page;
    // The demo agent's partial fix: a leading minus, not parentheses (2 of 5 F2P pass).
    const lines = readFileSync(join(fx.workspace.dir, 'invoicekit', 'parse.py'), 'utf8').split('\n');
    const at =
      lines.findIndex((l, i) => l.includes('cleaned = text.strip()') && lines[i + 1]?.includes('_AMOUNT_RE')) + 1;
    assert.ok(at > 0);
    await goToLine(page, at);
    await page.keyboard.press('End');
    await typeInEditor(
      page,
      '\n    if cleaned.startswith("-"):\n        return -parse_amount(cleaned[1:], default_currency)',
    );
    await page.keyboard.press('Control+S');
    await runCommand(page, 'ChainLens: Run Step Tests');
    const text = await waitForNotification(page, /^Step 1 tests \(your work\): /, { timeoutMs: 180_000 });
    assert.match(text, /^Step 1 tests \(your work\): unresolved · F2P \d\/5 · P2P \d+\/\d+\.$/);
    await screenshot(page, 'new-user-01-run-step-tests-outcome');
    const toast = page.locator('.notification-toast').filter({ hasText: 'Step 1 tests (your work)' });
    await toast.getByRole('button', { name: 'Show Failures' }).first().click();
    await quick(page)
      .filter({ hasText: /failed test/ })
      .waitFor({ state: 'visible', timeout: 10_000 });
    const failures = await quick(page).locator('.monaco-list-row').allInnerTexts();
    assert.ok(
      failures.some((f) => /test_parse_negative\[parens/.test(f) && /F2P/.test(f)),
      failures.join('\n'),
    );
    await screenshot(page, 'new-user-01b-failures');
    await pickQuickItem(page, /test_parse_negative\[parens-code\]/);
    await page
      .locator('.tab.active')
      .filter({ hasText: /\.log|test_parse\.py/ })
      .first()
      .waitFor({ timeout: 20_000 });
    const step = page.getByRole('treeitem', { name: /^Step 1, chainlens-demo__invoicekit-101, current/ }).first();
    const description = await step.locator('.label-description').first().innerText();
    assert.match(description, /^F2P \d\/5 · /, `the key fact first: ${description}`);
  });

  it('ticks "Submit the step" only once the step is submitted', async () => {
    const page = fx.page;
    const submitStep = page
      .locator('.gettingStartedContainer .getting-started-step')
      .filter({ hasText: 'Submit the step' });
    const done = async () => (await submitStep.first().getAttribute('aria-checked')) === 'true';
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await pickQuickItem(page, 'Get started with ChainLens');
    await submitStep.first().waitFor({ state: 'visible', timeout: 20_000 });
    await runCommand(page, 'ChainLens: Submit Step');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await done(), false, 'not ticked while the confirmation is open');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page
      .getByRole('treeitem', { name: /^Step 2, chainlens-demo__invoicekit-102, current/ })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await pickQuickItem(page, 'Get started with ChainLens');
    for (let i = 0; i < 50 && !(await done()); i++) await page.waitForTimeout(200);
    assert.equal(await done(), true, 'ticked after the submit');
  });

  it('Compare Step with Gold from the palette asks which step once two have started', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Compare Step with Gold');
    await quick(page)
      .locator('.monaco-list-row')
      .filter({ hasText: /^Step 1: / })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    const rows = await quick(page).locator('.monaco-list-row').allInnerTexts();
    assert.match(rows[0], /Step 2: .*current/);
    assert.ok(
      rows.some((r) => /Step 1: .*submitted/.test(r)),
      rows.join('\n'),
    );
    await pickQuickItem(page, /^Step 1: /);
    await page.locator('.tab', { hasText: 'Step 1: gold ↔' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  it("the walkthrough opens the demo agent's trajectory", async () => {
    const page = fx.page;
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await pickQuickItem(page, 'Get started with ChainLens');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText("Open an agent's trajectory", { exact: true }).first().click();
    await walkthrough.getByRole('button', { name: "Open the demo agent's trajectory" }).first().click();
    const view = await webviewFrame(page, /mini-swe-agent 1/, { timeoutMs: 60_000 });
    await view
      .locator('body')
      .filter({ hasText: /chainlens-demo__invoicekit-101/ })
      .waitFor({ timeout: 20_000 });
    await page.locator('.tab', { hasText: 'chainlens-demo__invoicekit-101 (trajectory)' }).first().waitFor();
    await screenshot(page, 'new-user-03-demo-trajectory');
  });

  it('the empty Batch Runs view says what to do; Run Batch… asks sources, repository, modes and workers', async () => {
    const page = fx.page;
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'ChainLens: Focus on Batch Runs View');
    const welcome = page.locator('.welcome-view-content').filter({ hasText: 'No batch runs yet' });
    await welcome.first().waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'new-user-07a-batch-runs-empty');
    await welcome.getByRole('button', { name: 'Run Batch…' }).first().click();
    const start = await fileDialogStart(page);
    assert.equal(start.replace(/\/$/, ''), fx.workspace.dir, `the dataset dialog starts at ${start}`);
    await acceptInFileDialog(page, join(fx.workspace.dir, 'invoicekit.chain.json'));
    const sources = quick(page).filter({ hasText: 'prediction sources' });
    if (
      !(await sources.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await screenshot(page, 'new-user-07-debug-dialog');
      await page.keyboard.press('Enter'); // the simple dialog may want the name confirmed
    }
    await sources.waitFor({ state: 'visible', timeout: 20_000 });
    const checked = await quick(page).locator('.monaco-list-row[aria-checked="true"]').allInnerTexts();
    assert.ok(checked.some((r) => /^gold/.test(r)) && checked.some((r) => /demo-agent\.predictions\.jsonl/.test(r)));
    await screenshot(page, 'new-user-07b-run-batch-sources');
    await page.keyboard.press('Enter');
    await quick(page).filter({ hasText: 'repository' }).waitFor({ state: 'visible', timeout: 10_000 });
    const repos = await quick(page).locator('.monaco-list-row').allInnerTexts();
    assert.match(repos[0], /The open run's repository/);
    await page.keyboard.press('Enter');
    await quick(page).filter({ hasText: 'Run Batch: modes' }).waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Enter');
    await quick(page).filter({ hasText: 'Run Batch: workers' }).waitFor({ state: 'visible', timeout: 10_000 });
    await quick(page).locator('input.input').fill('2');
    await page.keyboard.press('Enter');
    await quick(page).filter({ hasText: 'Run directory' }).waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Enter');
    // 2 sources x 2 modes x 3 steps, two at a time; then the Results view opens.
    const results = await webviewFrame(page, /full chain/i, { timeoutMs: 400_000 });
    await results.locator('svg.cl-chart').first().waitFor({ timeout: 20_000 });
    await runCommand(page, 'View: Split Editor Right');
    await runCommand(page, 'View: Focus First Editor Group');
    await page.waitForTimeout(1000);
    const widths = await results.locator('body').evaluate((body) => ({
      body: body.clientWidth,
      charts: Array.from(body.querySelectorAll('svg.cl-chart')).map((s) => s.getBoundingClientRect().width),
      tables: Array.from(body.querySelectorAll('table')).map((t) => t.getBoundingClientRect().width),
    }));
    assert.ok(widths.charts.length > 0);
    for (const w of widths.charts)
      assert.ok(w <= widths.body + 1, `a chart fits the half-width panel: ${JSON.stringify(widths)}`);
    // A wide table scrolls inside the panel instead of running off its edge.
    for (const w of widths.tables)
      assert.ok(w <= widths.body + 1, `a table fits the half-width panel: ${JSON.stringify(widths)}`);
    const goldLines = await results
      .locator('g.cl-series[data-series^="gold"] path.cl-line')
      .evaluateAll((paths) => paths.map((p) => p.getAttribute('d')));
    assert.ok(
      goldLines.length >= 2 && new Set(goldLines).size === goldLines.length,
      `gold's lines apart: ${goldLines.join(' | ')}`,
    );
    await screenshot(page, 'new-user-07c-batch-results-half-width');
  });
});
