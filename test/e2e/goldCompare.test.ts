// Putting a symbol next to gold in a real VS Code (code-server 4.104 in Chromium): the demo chain
// checked out as AH with the CLI (step 1 = the demo agent's recorded patch, step 2 yours), an edit
// in step 2 outside gold, then the CodeLenses above the changed and the missed symbols: the diff
// with gold at the symbol, gold | recorded | working side by side, and labelling from the lens.
// Screenshots: test-results/gold-compare-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  openChainLensWorkbench,
  openFile,
  repoRoot,
  runCommand,
  screenshot,
  typeInEditor,
  waitForNotification,
  type ChainLensWorkbench,
} from './harness';
import { lineOf, makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';

async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
}

/** A CodeLens link in view, by title (lenses scrolled out of view stay in the DOM, hidden). */
function lens(page: Page, title: RegExp) {
  return page.locator('.editor-instance .codelens-decoration a:visible', { hasText: title });
}

/** The demo chain checked out as AH with the CLI, as a person would; the window resumes the run. */
function ahWorkspace(): DemoWorkspace {
  const demo = makeDemoWorkspace();
  const predictions = join(demo.dir, 'demo-agent.predictions.jsonl');
  execFileSync(
    process.execPath,
    [
      join(repoRoot, 'dist', 'cli.js'),
      'checkout',
      demo.chainFile,
      '--repo',
      demo.dir,
      '--dir',
      demo.dir,
      '--authors',
      '1=recorded',
      '--predictions',
      predictions,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return demo;
}

describe('ChainLens: compare a symbol with gold, and gold | recorded | working', () => {
  let fx: ChainLensWorkbench<DemoWorkspace>;
  let parsePy: string;

  before(async () => {
    fx = await openChainLensWorkbench({ workspace: ahWorkspace, viewport: { width: 1600, height: 950 } });
    parsePy = join(fx.workspace.dir, 'invoicekit', 'parse.py');
  });
  after(() => fx?.close());

  it('shows lenses above the symbol the step changes outside gold and the one gold changes that the step leaves alone', async () => {
    const page = fx.page;
    // The run resumes when the window opens: the status bar names step 2.
    await page
      .locator('.statusbar-item', { hasText: /step 2\/3/ })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await openFile(page, 'invoicekit/parse.py');
    // parse_decimal's `cleaned = text.strip()` (the one followed by the _DECIMAL_RE check): an edit gold does not make.
    const lines = readFileSync(parsePy, 'utf8').split('\n');
    const target =
      lines.findIndex((l, i) => l.includes('cleaned = text.strip()') && lines[i + 1]?.includes('_DECIMAL_RE')) + 1;
    assert.ok(target > 0);
    await goToLine(page, target);
    await page.keyboard.press('End');
    await typeInEditor(page, '\n    cleaned = cleaned.replace(" ", "")');
    await runCommand(page, 'File: Save');
    await page.locator('.tab.dirty', { hasText: 'parse.py' }).waitFor({ state: 'detached', timeout: 20_000 });
    await goToLine(page, lineOf(parsePy, 'def parse_decimal'));
    // Step 2 is the person's own: its gold stays hidden (no lens, no gold compare) until revealed.
    // From the palette it asks which step (step 1, recorded, is started too): the current one is
    // first, marked as hidden, and choosing it is refused.
    await runCommand(page, 'ChainLens: Compare Step with Gold');
    const current = page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ hasText: /Step 2: .*current .*gold hidden until you submit or reveal it/ });
    await current.first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.keyboard.press('Enter');
    await waitForNotification(page, /Compare Step with Gold is not available: you are solving step 2 yourself/);
    assert.equal(await lens(page, /gold/).count(), 0, 'no gold-derived lens before the reveal');
    await screenshot(page, 'gold-compare-00-withheld');
    await runCommand(page, 'ChainLens: Reveal Gold for This Step');
    await screenshot(page, 'gold-compare-00-edited');
    await lens(page, /gold leaves this alone/)
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await lens(page, /Gold \| recorded \| working/)
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'gold-compare-01-lens-overshoot');
    await goToLine(page, lineOf(parsePy, 'def _to_decimal'));
    await lens(page, /gold changes this, the step does not/)
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'gold-compare-02-lens-undershoot');
  });

  it("opens the diff with gold at the missed symbol: gold's change on the left, the work tree on the right", async () => {
    const page = fx.page;
    await lens(page, /gold changes this, the step does not/)
      .first()
      .click();
    const tab = page.locator('.tab', { hasText: '_to_decimal: gold ↔ working' });
    await tab.first().waitFor({ state: 'visible', timeout: 30_000 });
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 20_000 });
    // Gold's side has the helper it adds; both sides are shown at _to_decimal.
    await diff
      .locator('.editor.original .view-line', { hasText: '_decimal_mark' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await diff
      .locator('.editor.modified .view-line', { hasText: 'def _to_decimal' })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'gold-compare-03-symbol-diff');
  });

  it('opens gold, the recorded agent patch and the work tree side by side at the symbol', async () => {
    const page = fx.page;
    await openFile(page, 'invoicekit/parse.py');
    await goToLine(page, lineOf(parsePy, 'def parse_decimal'));
    await lens(page, /Gold \| recorded \| working/)
      .first()
      .click();
    for (const title of ['parse.py (gold)', 'parse.py (recorded)']) {
      await page.locator('.tab', { hasText: title }).first().waitFor({ state: 'visible', timeout: 30_000 });
    }
    const groups = page.locator('.editor-group-container');
    await page.waitForFunction(() => document.querySelectorAll('.editor-group-container').length >= 3, undefined, {
      timeout: 20_000,
    });
    // Each of the three editors shows parse_decimal, and the working one has the edit.
    for (let i = 0; i < 3; i++) {
      await groups
        .nth(i)
        .locator('.view-line', { hasText: 'def parse_decimal' })
        .first()
        .waitFor({ state: 'visible', timeout: 20_000 });
    }
    await groups
      .nth(2)
      .locator('.view-line', { hasText: 'cleaned.replace(" ", "")' })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(
      await groups.nth(0).locator('.view-line', { hasText: 'cleaned.replace(" ", "")' }).count(),
      0,
      'gold does not have the edit',
    );
    // The virtual versions are highlighted as Python, not plain text (their names end in "(gold)").
    assert.ok((await groups.nth(0).locator('.view-line span[class*="mtk"]').count()) > 0);
    await screenshot(page, 'gold-compare-04-side-by-side');
  });

  it('labels the symbol from its lens with a digit key: the label thread opens on it', async () => {
    const page = fx.page;
    await openFile(page, 'invoicekit/parse.py');
    await goToLine(page, lineOf(parsePy, 'def parse_decimal'));
    await lens(page, /Label drift/)
      .first()
      .click();
    const qp = page.locator('.quick-input-widget');
    await qp.filter({ hasText: /Label: parse_decimal/ }).waitFor({ state: 'visible', timeout: 20_000 });
    await page.keyboard.type('5');
    await page
      .locator('.review-widget')
      .filter({ hasText: 'SILENT FALLBACK' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'gold-compare-05-label-from-lens');
  });
});
