// The trajectory viewer in a real VS Code (code-server 4.104 in Chromium), driven like a person:
// open the pydicom SWE-agent v0 run from the Explorer's context menu, walk its steps with the
// keyboard to the edit of numpy_handler.py (step 8, lines 287-296) and see the editor follow,
// open the file as of that step, and see a truncated trajectory reported with file and
// position while its readable part is still shown. Screenshots: test-results/trajectory-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  explorerMenu,
  openChainLensWorkbench,
  reloadWindow,
  screenshot,
  tempWorkspace,
  waitForLog,
  webviewFrame,
  type ChainLensWorkbench,
} from './harness';
import { makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';
import { formatFile } from '../helpers/formats';

const TRAJ = 'sweagent_v0_gpt4__pydicom__pydicom-1458.traj';
const HANDLER = 'pydicom/pixel_data_handlers/numpy_handler.py';
const fixture = formatFile(TRAJ);

/** Visible lines of the editor group whose active tab is `tab` (the viewer keeps the focus). */
async function linesOfEditor(page: Page, tab: string): Promise<string> {
  const group = page.locator('.editor-group-container').filter({ has: page.locator('.tab.active', { hasText: tab }) });
  const lines = group.first().locator('.monaco-editor .view-lines .view-line');
  const tops = await lines.evaluateAll((els) =>
    els.map((e) => ({
      top: parseFloat((e as HTMLElement).style.top),
      text: (e.textContent ?? '').replace(/\u00a0/g, ' '),
    })),
  );
  return tops
    .sort((a, b) => a.top - b.top)
    .map((l) => l.text)
    .join('\n');
}

async function activeTab(page: Page): Promise<string> {
  return (await page.locator('.editor-group-container .tab.active').allInnerTexts()).map((t) => t.trim()).join(' | ');
}

const VIEWPORT = { width: 1600, height: 1000 };

function fillPydicomWorkspace(dir: string): void {
  copyFileSync(fixture, join(dir, TRAJ));
  // a stand-in for the repository file the agent edited, long enough for lines 287-296
  mkdirSync(join(dir, 'pydicom/pixel_data_handlers'), { recursive: true });
  writeFileSync(
    join(dir, HANDLER),
    Array.from({ length: 380 }, (_, k) => `# numpy_handler stub line ${k + 1}`).join('\n') + '\n',
  );
  // the same run cut off mid-file, as a crashed agent leaves it
  const text = readFileSync(fixture, 'utf8');
  writeFileSync(join(dir, 'truncated.traj'), text.slice(0, Math.floor(text.length * 0.6)));
}

describe('ChainLens trajectory viewer: step through the pydicom SWE-agent run', () => {
  let fx: ChainLensWorkbench;
  before(async () => {
    fx = await openChainLensWorkbench({
      workspace: () => tempWorkspace('chainlens-traj-ws-', fillPydicomWorkspace),
      viewport: VIEWPORT,
    });
  });
  after(() => fx?.close());

  it('opens from the Explorer context menu and lists every step with its kind', async () => {
    const page = fx.page;
    const opened = Date.now();
    await explorerMenu(page, TRAJ, 'Open Trajectory…');
    const frame = await webviewFrame(page, /pydicom__pydicom-1458/, { timeoutMs: 60_000 });
    await frame.locator('#step-11').waitFor({ state: 'visible', timeout: 30_000 });
    process.stderr.write(`[trajectory] viewer showed all 12 steps ${Date.now() - opened} ms after the menu click\n`);
    assert.match(await frame.locator('.meta').innerText(), /swe-agent v0.*12 steps/s);
    assert.equal((await frame.locator('#step-8 .summary').innerText()).trim(), 'edit numpy_handler.py 287-296');
    await waitForLog(
      fx.server,
      /trajectory sweagent_v0_gpt4__pydicom__pydicom-1458\.traj: 1 trajectories, 12 steps, 0 problems/,
      { channel: 'ChainLens' },
    );
  });

  it('keeps one row per line after a kind filter is turned on and off, and a click selects the row clicked', async () => {
    const page = fx.page;
    const frame = await webviewFrame(page, /pydicom__pydicom-1458/);
    // "edit" hides the other steps; turning it off brings them back as newly made rows, which the
    // webview's CSP used to leave without their position (all at the top of the list)
    const chip = frame.locator('.kinds button.kind', { hasText: 'edit' });
    await chip.click();
    await frame.locator('#step-4').waitFor({ state: 'detached', timeout: 10_000 });
    await chip.click();
    await frame.locator('#step-11').waitFor({ state: 'visible', timeout: 10_000 });
    const boxes = await frame
      .locator('.step-list .row')
      .evaluateAll((rows) => rows.map((r) => ({ id: r.id, top: Math.round(r.getBoundingClientRect().top) })));
    assert.equal(boxes.length, 12, `rows: ${JSON.stringify(boxes)}`);
    assert.equal(new Set(boxes.map((b) => b.top)).size, 12, `each row on its own line: ${JSON.stringify(boxes)}`);
    const byStep = [...boxes].sort((a, b) => Number(a.id.slice(5)) - Number(b.id.slice(5)));
    for (let k = 1; k < byStep.length; k++)
      assert.ok(byStep[k].top > byStep[k - 1].top, `row order: ${JSON.stringify(byStep)}`);
    for (const k of [2, 7, 10]) {
      await frame.locator(`#step-${k}`).click();
      await frame.locator('.detail-pane h2', { hasText: `Step ${k} ·` }).waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await frame.locator('.row.selected').getAttribute('id'), `step-${k}`);
    }
    await screenshot(page, 'trajectory-00-filter-on-off');
  });

  it('walks the steps with j and the editor follows the edit of numpy_handler.py at lines 287-296', async () => {
    const page = fx.page;
    const frame = await webviewFrame(page, /pydicom__pydicom-1458/);
    await frame.locator('#step-4').click(); // view numpy_handler.py 273-372
    await page.locator('.tab.active', { hasText: 'numpy_handler.py' }).waitFor({ state: 'visible', timeout: 20_000 });
    for (let k = 0; k < 4; k++) await frame.locator('body').press('j');
    await frame.locator('#step-8.selected').waitFor({ state: 'visible', timeout: 10_000 });
    await frame.locator('.detail-pane h2', { hasText: 'Step 8 · edit' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await frame.locator('.detail-pane').innerText(), /edit 287:296/);
    assert.match(await activeTab(page), /numpy_handler\.py/);
    // the touched lines are in view and highlighted by the step's decoration
    await page
      .locator('.editor-group-container .view-line', { hasText: 'stub line 287' })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
    const text = await linesOfEditor(page, 'numpy_handler.py');
    for (const n of [287, 296]) assert.match(text, new RegExp(`stub line ${n}\\b`));
    const highlighted = await page.locator('.editor-group-container .view-overlays .cdr').count();
    assert.ok(
      highlighted >= 10,
      `expected the 10 touched lines highlighted, found ${highlighted} decorated line overlays`,
    );
    await screenshot(page, 'trajectory-01-step8-editor-follows');
  });

  it("opens numpy_handler.py as of step 8 as a read-only document with the agent's edit", async () => {
    const page = fx.page;
    const frame = await webviewFrame(page, /pydicom__pydicom-1458/);
    await frame.locator('.files vscode-button', { hasText: 'Workspace at this step' }).first().click();
    await page.locator('.tab.active', { hasText: 'numpy_handler.py' }).waitFor({ state: 'visible', timeout: 20_000 });
    await page
      .locator('.editor-group-container .view-line', { hasText: 'required_elements' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'trajectory-02-workspace-at-step8');
    await frame.locator('.files vscode-button', { hasText: 'Diff with previous step' }).first().click();
    await page
      .locator('.tab.active', { hasText: /numpy_handler\.py: step 7 ↔ step 8/ })
      .waitFor({ state: 'visible', timeout: 20_000 });
    // the diff editor has rendered both sides, with a change marked
    await page
      .locator('.monaco-diff-editor .modified-in-monaco-diff-editor .view-line')
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await page
      .locator('.monaco-diff-editor .line-insert, .monaco-diff-editor .char-insert')
      .first()
      .waitFor({ state: 'attached', timeout: 20_000 });
    await screenshot(page, 'trajectory-03-diff-step7-step8');
  });

  it("shows a truncated trajectory's problem with file and position, and the steps it could read", async () => {
    const page = fx.page;
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
    writeFileSync(join(fx.workspace.dir, 'truncated.traj'), readFileSync(fixture, 'utf8'));
    await problems.first().waitFor({ state: 'detached', timeout: 30_000 });
    await frame.locator('.meta', { hasText: 'exit: submitted' }).waitFor({ state: 'visible', timeout: 10_000 });
  });

  it('compares two trajectories side by side from a multi-selection in the Explorer', async () => {
    const page = fx.page;
    await page.getByRole('treeitem', { name: TRAJ, exact: true }).first().click();
    await page
      .getByRole('treeitem', { name: 'truncated.traj', exact: true })
      .first()
      .click({ modifiers: ['Control'] });
    await explorerMenu(page, 'truncated.traj', 'Compare Trajectories…');
    const frame = await webviewFrame(page, /Aligned by action/, { timeoutMs: 30_000 });
    await frame.locator('table.compare tbody tr').nth(11).waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await frame.locator('table.compare tbody tr').count(), 12);
    assert.match(await frame.locator('.files-row').innerText(), /pydicom\/pixel_data_handlers\/numpy_handler\.py/);
    await screenshot(page, 'trajectory-05-compare');
  });

  it('comes back after a window reload with the same step selected', async () => {
    const page = fx.page;
    // Developer: Reload Window, as a person reloads: the workbench writes the viewer's saved state
    // before it goes (a browser refresh may not, and the window then comes back as it was earlier).
    await reloadWindow(fx.server, fx.wb);
    await page.locator('.tab', { hasText: 'pydicom__pydicom-1458 (trajectory)' }).first().click({ timeout: 60_000 });
    // the new extension host's serializer reopens the file with the step the viewer saved
    await waitForLog(fx.server, /trajectory viewer restored: .*sweagent_v0_gpt4__pydicom__pydicom-1458\.traj, step 8/, {
      channel: 'ChainLens',
      timeoutMs: 60_000,
    });
    // the viewer's own frame: the compare view beside it names the same instance
    const frame = await webviewFrame(page, /pydicom__pydicom-1458\s*swe-agent v0/, { timeoutMs: 60_000 });
    await frame.locator('#step-8.selected').waitFor({ state: 'visible', timeout: 30_000 });
    await frame.locator('.detail-pane h2', { hasText: 'Step 8 · edit' }).waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'trajectory-06-restored');
  });
});

/**
 * The demo agent's run on chain step 1 as a SWE-agent v0 trajectory (made here from its recorded
 * patch): named after the instance, which is how a .traj without replay_config names it.
 */
function withStep1Trajectory(demo: DemoWorkspace): DemoWorkspace {
  const prediction = JSON.parse(
    readFileSync(join(demo.dir, 'demo-agent.predictions.jsonl'), 'utf8').split('\n')[0],
  ) as { instance_id: string; model_patch: string };
  const state = JSON.stringify({ open_file: '/invoicekit/invoicekit/parse.py', working_dir: '/invoicekit' });
  const lines = readFileSync(join(demo.dir, 'invoicekit', 'parse.py'), 'utf8').split('\n').length - 1;
  const traj = {
    environment: 'swe_main',
    trajectory: [
      {
        thought: 'parse_amount should accept a leading minus.',
        action: 'open invoicekit/parse.py',
        observation: `[File: /invoicekit/invoicekit/parse.py (${lines} lines total)]`,
        state,
      },
      { thought: 'Done.', action: 'submit', observation: prediction.model_patch, state },
    ],
    history: [],
    info: { exit_status: 'submitted', submission: prediction.model_patch },
  };
  writeFileSync(join(demo.dir, `${prediction.instance_id}.traj`), JSON.stringify(traj, null, 2));
  appendFileSync(join(demo.dir, '.git', 'info', 'exclude'), `/${prediction.instance_id}.traj\n`);
  return demo;
}

describe("ChainLens trajectory viewer: a chain step's trajectory against the gold patch", () => {
  const STEP1 = 'chainlens-demo__invoicekit-101';
  let fx: ChainLensWorkbench<DemoWorkspace>;
  before(async () => {
    fx = await openChainLensWorkbench({
      workspace: () => withStep1Trajectory(makeDemoWorkspace({ checkout: true })),
      viewport: VIEWPORT,
    });
  });
  after(() => fx?.close());

  it('opens the submission against the gold patch of its chain step as a diff, and the test patch', async () => {
    const page = fx.page;
    await explorerMenu(page, `${STEP1}.traj`, 'Open Trajectory…');
    const frame = await webviewFrame(page, new RegExp(`${STEP1}\\s*swe-agent v0`), { timeoutMs: 60_000 });
    // the open run has this instance as step 1, so the header offers its gold and test patches
    await frame.locator('.evaluation', { hasText: 'Chain step 1' }).waitFor({ state: 'visible', timeout: 60_000 });
    await frame.locator('.actions vscode-button', { hasText: 'Submission ↔ Gold' }).click();
    await page
      .locator('.tab.active', { hasText: `${STEP1}: submission ↔ gold (step 1)` })
      .waitFor({ state: 'visible', timeout: 20_000 });
    // left the agent's patch, right gold: the accounting-style branch is what gold has and the agent left out
    const diff = page
      .locator('.monaco-diff-editor')
      .filter({ has: page.locator('.modified-in-monaco-diff-editor') })
      .first();
    await diff
      .locator('.modified-in-monaco-diff-editor .view-line', { hasText: 'Accounting style for credits' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(
      await diff.locator('.original-in-monaco-diff-editor .view-line', { hasText: 'Accounting style' }).count(),
      0,
    );
    await diff.locator('.line-insert, .char-insert').first().waitFor({ state: 'attached', timeout: 20_000 });
    await screenshot(page, 'trajectory-07-submission-vs-gold');
    await frame.locator('.actions vscode-button', { hasText: 'Test Patch' }).click();
    await page
      .locator('.tab.active', { hasText: 'step 1 test patch.diff' })
      .waitFor({ state: 'visible', timeout: 20_000 });
    await page
      .locator('.editor-group-container .view-line', { hasText: 'diff --git a/tests/test_parse.py' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'trajectory-08-test-patch');
  });
});
