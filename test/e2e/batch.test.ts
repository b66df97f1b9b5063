// A batch in a real VS Code (code-server), on the demo chain with gold in Oracle and Seq mode
// (6 container runs, one at a time): Run Batch… shows its progress in a notification and the
// Batch Runs view counts the steps as their records are written; Cancel in the notification stops
// it with its records kept (interrupted); Resume in the view finishes it without running a
// recorded step again; in the Results view a number opens the steps behind it (a pick, then the
// step's log and record), and so does a step of the Runs view. Screenshots: test-results/batch-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  clickTreeItem,
  openChainLensWorkbench,
  readExtensionHostLog,
  runCommand,
  runExtensionHostSuite,
  screenshot,
  waitForNotification,
  webviewFrame,
  type ChainLensWorkbench,
  type ExthostReport,
} from './harness';
import { makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';

/** finished_at of every record, by its path under records/. */
function recordsOf(runDir: string): Map<string, string> {
  const dir = join(runDir, 'records');
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    if (rel.endsWith('.json') && !rel.split('/').pop()!.startsWith('.'))
      out.set(rel, (JSON.parse(readFileSync(join(dir, rel), 'utf8')) as { finished_at: string }).finished_at);
  return out;
}

function runRow(page: Page, description: RegExp) {
  return page.getByRole('treeitem', { name: new RegExp(`^demo-gold, ${description.source}`) });
}

async function openTab(page: Page, name: RegExp): Promise<void> {
  await page
    .locator('.tabs-container .tab')
    .filter({ hasText: name })
    .first()
    .waitFor({ state: 'visible', timeout: 20_000 });
}

describe('a batch in VS Code: progress, the Batch Runs view, cancel and resume, the Results view', () => {
  let fx: ChainLensWorkbench<DemoWorkspace>;
  let runDir: string;
  before(async () => {
    fx = await openChainLensWorkbench({ workspace: () => makeDemoWorkspace(), viewport: { width: 1500, height: 950 } });
    runDir = join(fx.workspace.dir, '.chainlens-batches', 'demo-gold');
  });
  after(() => fx?.close());

  it('Run Batch shows progress, the Runs view counts live, Cancel keeps the records, Resume finishes', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Focus on Batch Runs View');
    const suite: Promise<ExthostReport> = runExtensionHostSuite(
      fx.server,
      join(__dirname, 'exthost', 'batch.suite.ts'),
      {
        timeoutMs: 600_000,
        testTimeoutMs: 400_000,
      },
    );
    try {
      await waitForNotification(page, /steps recorded|step \d/, { timeoutMs: 120_000 });
      // The first record is written: the view says so while the batch runs.
      await runRow(page, /running · [1-5]\/6 done/)
        .first()
        .waitFor({ state: 'visible', timeout: 180_000 });
      await screenshot(page, 'batch-01-running');
      const toast = page
        .locator('.notifications-toasts .notification-toast')
        .filter({ hasText: /ChainLens batch demo-gold/ })
        .first();
      await toast.hover();
      await toast.getByRole('button', { name: 'Cancel' }).click();
      await runRow(page, /interrupted · [1-5]\/6 done/)
        .first()
        .waitFor({ state: 'visible', timeout: 120_000 });
      await waitForNotification(page, /Cancelled: Resume in the Runs view continues it/, { timeoutMs: 30_000 });
      await screenshot(page, 'batch-02-interrupted');
    } finally {
      const report = await suite;
      if (report.tests.some((t) => t.error)) console.log(readExtensionHostLog(fx.server).slice(-6000));
    }
    const kept = recordsOf(runDir);
    assert.ok(kept.size >= 1 && kept.size < 6, `records after cancel: ${[...kept.keys()].join(', ')}`);
    assert.deepEqual(readdirSync(runDir).sort(), ['logs', 'manifest.json', 'records'], 'no work tree or lock is left');

    // Resume from the run's inline action.
    const row = runRow(page, /interrupted/).first();
    await row.hover();
    await row.getByRole('button', { name: 'Resume Batch' }).click();
    await runRow(page, /finished · 6\/6 done · 6 resolved/)
      .first()
      .waitFor({ state: 'visible', timeout: 300_000 });
    const all = recordsOf(runDir);
    assert.equal(all.size, 6);
    for (const [rel, at] of kept) assert.equal(all.get(rel), at, `${rel} was evaluated again`);
    await screenshot(page, 'batch-03-finished');
  });

  it('a number of the Results view opens the steps behind it, then a step its log and record', async () => {
    const page = fx.page;
    // Resume ended by opening the Results view.
    const results = await webviewFrame(page, /full chain/i, { timeoutMs: 30_000 });
    await screenshot(page, 'batch-04-results');
    await results.locator('td[data-key]').filter({ hasText: /^3\/3/ }).first().click();
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await page.locator('.quick-input-widget').innerText(), /3 step\(s\) behind this figure/);
    await screenshot(page, 'batch-05-pick');
    await rows.first().click();
    await openTab(page, /step-\d+\.log/);
    await openTab(page, /step-\d+\.json/);
    await screenshot(page, 'batch-06-step-log-and-record');

    // The same from the Runs view: the run, its gold · seq group, the chain, step 2.
    const run = runRow(page, /finished/).first();
    await run.locator('.monaco-tl-twistie').click();
    await clickTreeItem(page, /^gold · seq, 3\/3 done · 3 resolved/);
    await clickTreeItem(page, /^chainlens-demo_invoicekit_20240312, 3\/3 done/);
    await clickTreeItem(page, /^chainlens-demo_invoicekit_20240312 gold seq step 2, resolved/);
    await openTab(page, /step-2\.json/);
    await screenshot(page, 'batch-07-runs-view-step');
  });
});
