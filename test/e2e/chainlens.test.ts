// The main job in a real VS Code (code-server 4.104 in Chromium), driven like a person: open the
// demo chain from the ChainLens view, run step 1's tests in a container and see F2P fail, type
// the fix into parse.py, run again and see them pass, submit and land on step 2. Also: a broken
// chain file is reported readably. Screenshots: test-results/chainlens-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  openChainLensWorkbench,
  openFile,
  runCommand,
  screenshot,
  typeInEditor,
  waitForLog,
  waitForNotification,
  webviewFrame,
  type ChainLensWorkbench,
} from './harness';
import { lineOf, makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';
import { pickQuickItem, showTestingView, treeItem } from './exthost/workbenchHelpers';

const CHANNEL = { channel: 'ChainLens' };

describe('ChainLens in VS Code: solve step 1 of the demo chain', () => {
  let fx: ChainLensWorkbench<DemoWorkspace>;
  before(async () => {
    fx = await openChainLensWorkbench({ workspace: () => makeDemoWorkspace() });
  });
  after(() => fx?.close());

  it('shows the ChainLens view with an Open Chain button when no chain is open', async () => {
    const page = fx.page;
    await page.locator('.activitybar .action-item a[aria-label="ChainLens"]').click();
    const button = page.locator('.welcome-view-content a.monaco-button', { hasText: 'Open Chain…' });
    await button.waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'chainlens-01-welcome');
    // ChainLens activates on demand (the view, a command, a ChainLens work tree, or VS Code asking its
    // MCP server definition provider), never on '*'.
    const activation = await waitForLog(
      fx.server,
      /ExtensionService#_doActivateExtension chainlens\.chainlens, startup: \w+, activationEvent: '([^']+)'/,
    );
    assert.match(activation[1], /^(onView:chainlens\.chain|onCommand:chainlens\.|onMcpCollection:chainlens\.)/);
    const activated = await waitForLog(fx.server, /ChainLens [\d.]+ activated in (\d+) ms/, CHANNEL);
    process.stderr.write(`[chainlens e2e] activate() took ${activated[1]} ms\n`);
  });

  it('reports a broken chain file with its problems at their lines', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Open Chain…');
    await pickQuickItem(page, 'broken.chain.json');
    const message = await waitForNotification(page, /is not a valid ChainSWE chain/);
    assert.equal(message, 'Open Chain: broken.chain.json is not a valid ChainSWE chain (2 problems)');
    await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const problems = page.locator('.markers-panel .monaco-list-row');
    await problems.filter({ hasText: '$.base_commit' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    const orderRow = problems.filter({ hasText: '$.bug_fixes[1].order' }).first();
    await orderRow.waitFor({ state: 'visible' });
    const line = lineOf(fx.workspace.brokenChainFile, '"order": "two"');
    assert.match((await orderRow.getAttribute('aria-label')) ?? '', new RegExp(`expected number.*\\b${line}\\b`, 's'));
    await screenshot(page, 'chainlens-02-broken-chain');
    await runCommand(page, 'Notifications: Clear All Notifications');
    await runCommand(page, 'View: Hide Panel');
  });

  it('opens the demo chain: the tree shows three steps and step 1 is current', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Open Chain…');
    await pickQuickItem(page, 'invoicekit.chain.json');
    await pickQuickItem(page, "This workspace's repository");
    await pickQuickItem(page, /^Seq/);
    await pickQuickItem(page, 'You solve every step');
    assert.match(await treeItem(page, /^Step 1, chainlens-demo__invoicekit-101, current/), /human/);
    assert.match(await treeItem(page, /^Step 2, chainlens-demo__invoicekit-102/), /pending/);
    await treeItem(page, /^Step 3, chainlens-demo__invoicekit-103, pending/);
    const problem = await webviewFrame(page, /parse_amount rejects negative amounts/);
    await problem.getByText('Step 1 of 3').waitFor();
    await page
      .locator('.statusbar-item', { hasText: 'chainlens-demo_invoicekit_20240312 · step 1/3 · Seq' })
      .waitFor({ state: 'visible' });
    await screenshot(page, 'chainlens-03-chain-open');
  });

  it("runs step 1's tests in a container: the F2P tests fail before the fix", async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Run Step Tests');
    await waitForLog(fx.server, /step 1 \(worktree\): unresolved · F2P 0\/5 · P2P 22\/22/, {
      ...CHANNEL,
      timeoutMs: 180_000,
    });
    await showTestingView(page, 1);
    await treeItem(page, /test_parse_negative\[minus-code\].*Failed/i);
    await treeItem(page, /test_parse_decimal.*Passed/i);
    await screenshot(page, 'chainlens-04-tests-fail');
    // The failure's message: the pytest section of that test from the container log.
    await runCommand(page, 'Test Results: Focus on Test Results View');
    const results = page.locator('.part.panel');
    await results.waitFor({ state: 'visible', timeout: 15_000 });
    await results
      .getByRole('treeitem', { name: /test_parse_negative\[minus-code\]/ })
      .first()
      .click();
    const message = results.locator('.view-line').filter({ hasText: /test_parse_negative\[minus-code\]:\sFAILED/ });
    await message.first().waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'chainlens-04b-failure-message');
    await runCommand(page, 'View: Hide Panel');
  });

  it('takes the fix typed into parse.py: all tests pass', async () => {
    const page = fx.page;
    await openFile(page, 'invoicekit/parse.py');
    const line = lineOf(join(fx.workspace.dir, 'invoicekit', 'parse.py'), 'cleaned = text.strip()');
    await page.keyboard.press('Control+G');
    await page.keyboard.type(String(line));
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await typeInEditor(
      page,
      '\n    if cleaned[:1] == "-" or cleaned[:1] + cleaned[-1:] == "()":\n        return -parse_amount(cleaned.strip("-()").strip(), default_currency)',
    );
    await page.keyboard.press('Control+S');
    await screenshot(page, 'chainlens-05-fix-typed');
    await runCommand(page, 'ChainLens: Run Step Tests');
    await waitForLog(fx.server, /step 1 \(worktree\): resolved · F2P 5\/5 · P2P 22\/22/, {
      ...CHANNEL,
      timeoutMs: 180_000,
    });
    assert.match(
      readFileSync(join(fx.workspace.dir, 'invoicekit', 'parse.py'), 'utf8'),
      /return -parse_amount\(cleaned\.strip\("-\(\)"\)\.strip\(\), default_currency\)/,
    );
    await showTestingView(page, 1);
    await treeItem(page, /test_parse_negative\[minus-code\].*Passed/i);
    await screenshot(page, 'chainlens-06-tests-pass');
  });

  it('submits step 1: it is graded resolved and step 2 becomes current', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Submit Step');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'chainlens-07-submit-confirm');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.activitybar .action-item a[aria-label="ChainLens"]').click();
    await treeItem(page, /^Step 2, chainlens-demo__invoicekit-102, current/);
    const problem = await webviewFrame(page, /Step 2 of 3/);
    await problem.getByText('chainlens-demo__invoicekit-102').first().waitFor();
    await waitForLog(fx.server, /step 1 \(submitted\): resolved · F2P 5\/5 · P2P 22\/22/, {
      ...CHANNEL,
      timeoutMs: 180_000,
    });
    await treeItem(page, /^Step 1, chainlens-demo__invoicekit-101, resolved/);
    await screenshot(page, 'chainlens-08-step2-current');
  });
});
