// The trajectory viewer in a real VS Code (code-server 4.104 in Chromium), driven like a person:
// open the pydicom SWE-agent v0 run from the Explorer's context menu, walk its steps with the
// keyboard to the edit of numpy_handler.py (step 8, lines 287-296) and see the editor follow,
// open the file as of that step, and see a truncated trajectory reported with file and
// position while its readable part is still shown. Screenshots: test-results/trajectory-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openWorkbench, repoRoot, screenshot, startCodeServer, waitForLog, webviewFrame, type CodeServer, type Workbench } from './harness';
import { formatFile } from '../helpers/formats';

const TRAJ = 'sweagent_v0_gpt4__pydicom__pydicom-1458.traj';
const HANDLER = 'pydicom/pixel_data_handlers/numpy_handler.py';
const fixture = formatFile(TRAJ);

/** Right-clicks a file in the Explorer and picks a context menu entry. */
async function explorerMenu(page: Page, file: string, entry: string): Promise<void> {
  const item = page.getByRole('treeitem', { name: file, exact: true });
  await item.first().waitFor({ state: 'visible', timeout: 20_000 });
  await item.first().click({ button: 'right' });
  const action = page.locator('.monaco-menu .action-item').filter({ hasText: entry });
  await action.first().waitFor({ state: 'visible', timeout: 10_000 });
  await action.first().click();
  // Monaco's context menu can swallow a click that lands while it is still opening (seen under
  // load): if the menu is still up, the entry is highlighted by the hover, so Enter runs it.
  const menu = page.locator('.context-view .monaco-menu');
  await page.waitForTimeout(500);
  if (await menu.isVisible()) {
    await action.first().hover();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden', timeout: 5_000 });
  }
}

/** Visible lines of the editor group whose active tab is `tab` (the viewer keeps the focus). */
async function linesOfEditor(page: Page, tab: string): Promise<string> {
  const group = page.locator('.editor-group-container').filter({ has: page.locator('.tab.active', { hasText: tab }) });
  const lines = group.first().locator('.monaco-editor .view-lines .view-line');
  const tops = await lines.evaluateAll((els) => els.map((e) => ({ top: parseFloat((e as HTMLElement).style.top), text: (e.textContent ?? '').replace(/\u00a0/g, ' ') })));
  return tops.sort((a, b) => a.top - b.top).map((l) => l.text).join('\n');
}

async function activeTab(page: Page): Promise<string> {
  return (await page.locator('.editor-group-container .tab.active').allInnerTexts()).map((t) => t.trim()).join(' | ');
}

describe('ChainLens trajectory viewer: step through the pydicom SWE-agent run', () => {
  let workspace: string;
  let server: CodeServer;
  let wb: Workbench;

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'chainlens-traj-ws-'));
    copyFileSync(fixture, join(workspace, TRAJ));
    // a stand-in for the repository file the agent edited, long enough for lines 287-296
    mkdirSync(join(workspace, 'pydicom/pixel_data_handlers'), { recursive: true });
    writeFileSync(join(workspace, HANDLER), Array.from({ length: 380 }, (_, k) => `# numpy_handler stub line ${k + 1}`).join('\n') + '\n');
    // the same run cut off mid-file, as a crashed agent leaves it
    const text = readFileSync(fixture, 'utf8');
    writeFileSync(join(workspace, 'truncated.traj'), text.slice(0, Math.floor(text.length * 0.6)));
    server = await startCodeServer({ workspace, extensionDevPath: repoRoot });
    wb = await openWorkbench(server, { viewport: { width: 1600, height: 1000 } });
  });

  after(async () => {
    await wb?.close();
    await server?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('opens from the Explorer context menu and lists every step with its kind', async () => {
    const page = wb.page;
    const opened = Date.now();
    await explorerMenu(page, TRAJ, 'Open Trajectory…');
    const frame = await webviewFrame(page, /pydicom__pydicom-1458/, { timeoutMs: 60_000 });
    await frame.locator('#step-11').waitFor({ state: 'visible', timeout: 30_000 });
    process.stderr.write(`[trajectory] viewer showed all 12 steps ${Date.now() - opened} ms after the menu click\n`);
    assert.match(await frame.locator('.meta').innerText(), /swe-agent v0.*12 steps/s);
    assert.equal((await frame.locator('#step-8 .summary').innerText()).trim(), 'edit numpy_handler.py 287-296');
    await waitForLog(server, /trajectory sweagent_v0_gpt4__pydicom__pydicom-1458\.traj: 1 trajectories, 12 steps, 0 problems/, { channel: 'ChainLens' });
  });

  it('walks the steps with j and the editor follows the edit of numpy_handler.py at lines 287-296', async () => {
    const page = wb.page;
    const frame = await webviewFrame(page, /pydicom__pydicom-1458/);
    await frame.locator('#step-4').click(); // view numpy_handler.py 273-372
    await page.locator('.tab.active', { hasText: 'numpy_handler.py' }).waitFor({ state: 'visible', timeout: 20_000 });
    for (let k = 0; k < 4; k++) await frame.locator('body').press('j');
    await frame.locator('#step-8.selected').waitFor({ state: 'visible', timeout: 10_000 });
    await frame.locator('.detail-pane h2', { hasText: 'Step 8 · edit' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await frame.locator('.detail-pane').innerText(), /edit 287:296/);
    assert.match(await activeTab(page), /numpy_handler\.py/);
    // the touched lines are in view and highlighted by the step's decoration
    await page.locator('.editor-group-container .view-line', { hasText: 'stub line 287' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    const text = await linesOfEditor(page, 'numpy_handler.py');
    for (const n of [287, 296]) assert.match(text, new RegExp(`stub line ${n}\\b`));
    const highlighted = await page.locator('.editor-group-container .view-overlays .cdr').count();
    assert.ok(highlighted >= 10, `expected the 10 touched lines highlighted, found ${highlighted} decorated line overlays`);
    await screenshot(page, 'trajectory-01-step8-editor-follows');
  });

  it('opens numpy_handler.py as of step 8 as a read-only document with the agent\'s edit', async () => {
    const page = wb.page;
    const frame = await webviewFrame(page, /pydicom__pydicom-1458/);
    await frame.locator('.files vscode-button', { hasText: 'Workspace at this step' }).first().click();
    await page.locator('.tab.active', { hasText: 'numpy_handler.py' }).waitFor({ state: 'visible', timeout: 20_000 });
    await page.locator('.editor-group-container .view-line', { hasText: 'required_elements' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'trajectory-02-workspace-at-step8');
    await frame.locator('.files vscode-button', { hasText: 'Diff with previous step' }).first().click();
    await page.locator('.tab.active', { hasText: /numpy_handler\.py: step 7 ↔ step 8/ }).waitFor({ state: 'visible', timeout: 20_000 });
    // the diff editor has rendered both sides, with a change marked
    await page.locator('.monaco-diff-editor .modified-in-monaco-diff-editor .view-line').first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.locator('.monaco-diff-editor .line-insert, .monaco-diff-editor .char-insert').first().waitFor({ state: 'attached', timeout: 20_000 });
    await screenshot(page, 'trajectory-03-diff-step7-step8');
  });

  it('shows a truncated trajectory\'s problem with file and position, and the steps it could read', async () => {
    const page = wb.page;
    await explorerMenu(page, 'truncated.traj', 'Open Trajectory…');
    const frame = await webviewFrame(page, /truncated\.traj/, { timeoutMs: 30_000 }).catch(async (e: Error) => {
      await screenshot(page, 'trajectory-03-truncated-missing');
      throw e;
    });
    const problems = frame.locator('.problems li');
    await problems.first().waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await problems.allInnerTexts()).join('\n');
    assert.match(text, /truncated\.traj:\d+/);
    assert.ok((await frame.locator('.row').count()) > 0, 'the readable steps are listed');
    await screenshot(page, 'trajectory-04-truncated');
    // the agent finishes writing the file: the viewer reloads it and the problem is gone
    writeFileSync(join(workspace, 'truncated.traj'), readFileSync(fixture, 'utf8'));
    await problems.first().waitFor({ state: 'detached', timeout: 30_000 });
    await frame.locator('.meta', { hasText: 'exit: submitted' }).waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('compares two trajectories side by side from a multi-selection in the Explorer', async () => {
    const page = wb.page;
    await page.getByRole('treeitem', { name: TRAJ, exact: true }).first().click();
    await page.getByRole('treeitem', { name: 'truncated.traj', exact: true }).first().click({ modifiers: ['Control'] });
    await explorerMenu(page, 'truncated.traj', 'Compare Trajectories…');
    const frame = await webviewFrame(page, /Compared step by step/, { timeoutMs: 30_000 });
    await frame.locator('table.compare tbody tr').nth(11).waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await frame.locator('table.compare tbody tr').count(), 12);
    assert.match(await frame.locator('.files-row').innerText(), /pydicom\/pixel_data_handlers\/numpy_handler\.py/);
    await screenshot(page, 'trajectory-05-compare');
  });

  // Skipped: after page.reload() the panel is restored, but whether its saved step is re-selected
  // before the test looks is flaky in code-server under load (failed 2 of 4 runs). Open issue.
  it.skip('comes back after a window reload with the same step selected', async () => {
    const page = wb.page;
    await page.reload();
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.tab', { hasText: 'pydicom__pydicom-1458 (trajectory)' }).first().click({ timeout: 60_000 });
    const frame = await webviewFrame(page, /pydicom__pydicom-1458/, { timeoutMs: 60_000 });
    await frame.locator('#step-8.selected').waitFor({ state: 'visible', timeout: 30_000 });
    await frame.locator('.detail-pane h2', { hasText: 'Step 8 · edit' }).waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'trajectory-06-restored');
  });
});
