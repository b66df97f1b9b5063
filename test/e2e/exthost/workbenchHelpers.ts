// Workbench steps the ChainLens e2e tests share (on top of the harness's): quick picks, tree
// items by accessible name, the Test Explorer opened at a step.
import type { Page } from 'playwright-core';
import { runCommand } from '../harness';

/** Picks the quick-pick row whose label contains `text` (after the list settles). */
export async function pickQuickItem(page: Page, text: string | RegExp): Promise<void> {
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: text });
  await row.first().waitFor({ state: 'visible', timeout: 15_000 });
  await row.first().click();
}

/** Waits for a visible tree item whose accessible name matches; returns that name. */
export async function treeItem(page: Page, name: RegExp, timeout = 30_000): Promise<string> {
  const item = page.getByRole('treeitem', { name });
  try {
    await item.first().waitFor({ state: 'visible', timeout });
  } catch {
    const shown = await page.getByRole('treeitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    throw new Error(`no tree item ${name}; visible: ${JSON.stringify(shown)}`);
  }
  return (await item.first().getAttribute('aria-label')) ?? '';
}

/** Opens the Test Explorer with the chain and step `order` expanded. */
export async function showTestingView(page: Page, order: number): Promise<void> {
  await runCommand(page, 'Testing: Focus on Test Explorer View');
  const explorer = page.locator('.test-explorer').first();
  await explorer.waitFor({ state: 'visible', timeout: 15_000 });
  for (const name of [/^chainlens-demo_invoicekit_20240312 \(Seq\)/, new RegExp(`^Step ${order}: `)]) {
    const item = explorer.getByRole('treeitem', { name }).first();
    try {
      await item.waitFor({ state: 'visible', timeout: 15_000 });
    } catch {
      const shown = await explorer
        .getByRole('treeitem')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      throw new Error(`no test item ${name} in the Test Explorer; it shows ${JSON.stringify(shown)}`);
    }
    if ((await item.getAttribute('aria-expanded')) === 'false') await item.locator('.monaco-tl-twistie').click();
  }
}
