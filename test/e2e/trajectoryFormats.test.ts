// Reading real runs in a real VS Code (code-server 4.104 in Chromium), in one window on the demo
// chain run to its end in Seq by the demo agent (all three steps recorded): step 3's gold does
// not apply on the agent's work, so its drift is compared with gold on the Oracle state and the
// hover says so; step 1 is labelled after the run although step 3 changed the same function
// again, under the pseudonym of the labeller setting. Then trajectory files of every kind: Browse Trajectories in Folder on a folder holding an OpenHands output.jsonl lists one
// row per instance and opens the one picked; a file nothing can be read from (OpenHands V1's
// traj_*.json shape) fails in the viewer at once with the CLI's words; a predictions file says
// what it is; Compare Trajectories, from the palette, picks two files one after the other and
// aligns the runs by action, with gaps. Screenshots: test-results/trajectory-formats-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import {
  explorerMenu,
  openChainLensWorkbench,
  openFile,
  runCommand,
  screenshot,
  hoverUntil,
  webviewFrame,
  type ChainLensWorkbench,
} from './harness';
import { acceptInFileDialog } from './harness/fileDialog';
import { lineOf, makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';
import { formatFile } from '../helpers/formats';
import { readPointer, stateDirOf } from '../../src/infra/run/stateDir';

const TRAJ = 'sweagent_v0_gpt4__pydicom__pydicom-1458.traj';
const OPENHANDS = resolve(__dirname, '../fixtures/trajectories/openhands_v0_output.jsonl');

/**
 * The pydicom run as another run of the same instance: it lists the files first (`ls -F`) and
 * skips running the reproduction and `find_file`, so steps 2 and 3 of the first run have no
 * partner and every later step sits one place earlier.
 */
function otherRun(): string {
  const doc = JSON.parse(readFileSync(formatFile(TRAJ), 'utf8')) as { trajectory: Record<string, unknown>[] };
  const first = doc.trajectory[0];
  const steps = doc.trajectory.filter((_, k) => k !== 2 && k !== 3);
  steps.unshift({ ...first, action: 'ls -F\n', thought: 'What is in the repository?', observation: 'pydicom/\n' });
  return JSON.stringify({ ...doc, trajectory: steps }, null, 2);
}

const REPO_ROOT = resolve(__dirname, '../..');
const PARSE = 'invoicekit/parse.py';

/** The demo chain run to its end in Seq by the demo agent, and agent runs beside it (not in git). */
function finishedSeqRun(): DemoWorkspace {
  const demo = makeDemoWorkspace();
  execFileSync(
    process.execPath,
    [
      join(REPO_ROOT, 'dist', 'cli.js'),
      'checkout',
      demo.chainFile,
      '--repo',
      demo.dir,
      '--dir',
      demo.dir,
      '--mode',
      'seq',
      '--authors',
      'recorded,recorded,recorded',
      '--predictions',
      join(demo.dir, 'demo-agent.predictions.jsonl'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  fill(demo.dir);
  appendFileSync(
    join(demo.dir, '.git', 'info', 'exclude'),
    '/agent-runs/\n/preds.json\n/other-run.traj\n/traj_safety-backdoor.json\n',
  );
  return demo;
}

function fill(dir: string): void {
  mkdirSync(join(dir, 'agent-runs'));
  copyFileSync(OPENHANDS, join(dir, 'agent-runs', 'output.jsonl'));
  copyFileSync(formatFile(TRAJ), join(dir, 'agent-runs', TRAJ));
  copyFileSync(formatFile('minisweagent_preds_example.json'), join(dir, 'preds.json'));
  writeFileSync(join(dir, 'other-run.traj'), otherRun());
  // An OpenHands V1 benchmark file's shape ChainLens does not read: the CLI refuses it at once.
  writeFileSync(
    join(dir, 'traj_safety-backdoor.json'),
    JSON.stringify({ instance_id: 'safety-backdoor', events: { kind: 'Conversation', count: 2 } }),
  );
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

describe('ChainLens on real runs: a finished Seq chain labelled and compared with gold, trajectories of every kind', () => {
  let fx: ChainLensWorkbench<DemoWorkspace>;
  before(async () => {
    fx = await openChainLensWorkbench({
      workspace: finishedSeqRun,
      viewport: { width: 1600, height: 1000 },
      settings: { 'chainlens.labels.labeller': 'L1' },
    });
  });
  after(() => fx?.close());

  it('Seq step 3: gold does not apply on the agent’s work; drift is compared with gold on the Oracle state, and the hover says so', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Annotate Step…');
    await pickQuickItem(page, /^Step 3/);
    await openFile(page, PARSE);
    // _resolve_currency: its gold-side check, marked in the step's version
    const line = lineOf(join(fx.workspace.dir, PARSE), 'if token is None:');
    await goToLine(page, line);
    await page.locator('.editor-instance .cgmr').first().waitFor({ state: 'visible', timeout: 60_000 });
    const body = page.locator('.editor-instance .view-line').filter({ hasText: 'if token is None:' }).first();
    const hover = page.locator('.monaco-hover:visible').filter({ hasText: /Oracle state/ });
    await hoverUntil(page, body, hover, { position: { x: 60, y: 8 }, shot: 'real-runs-00-hover-missing' });
    assert.match(
      (await hover.first().innerText()).replace(/\s+/g, ' '),
      /Gold is compared as it applies on step 3's Oracle state \(base \+ the gold patches of steps 1–2\): the gold patch does not apply on this step's own start\./,
    );
    await screenshot(page, 'real-runs-00-seq-step3-gold-on-oracle');
    await page.keyboard.press('Escape');
  });

  it('step 1 of the finished chain is labelled in its own version, under the labeller setting’s pseudonym', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Annotate Step…');
    await pickQuickItem(page, /^Step 1/);
    await runCommand(page, 'ChainLens: Label Changed Symbols');
    const title = page.locator('.quick-input-widget .quick-input-title');
    await title.filter({ hasText: /parse_amount/ }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(
      await title.innerText(),
      /parse_amount \(invoicekit\/parse\.py\), as step 1 left it \(changed since\)/,
    );
    await page.locator('.tab.active', { hasText: 'parse.py (step 1)' }).waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'real-runs-01-label-step1-own-version');
    await page.keyboard.type('4');
    const runs = join(stateDirOf(readPointer(join(fx.workspace.dir, '.git'))!), 'runs');
    let records: { run?: string; step: number; symbol: string | null; labeller: string; label: string }[] = [];
    for (const until = Date.now() + 20_000; records.length === 0 && Date.now() < until;) {
      const file = readdirSync(runs).find((f) => f.endsWith('.labels.jsonl'));
      if (file)
        records = readFileSync(join(runs, file), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      if (records.length === 0) await page.waitForTimeout(200);
    }
    await page.keyboard.press('Escape');
    assert.equal(records.length, 1, JSON.stringify(records));
    const [r] = records;
    assert.deepEqual([r.step, r.symbol, r.label, r.labeller], [1, 'parse_amount', 'INPUT GATING', 'L1']);
    assert.match(r.run ?? '', /\S/);
  });

  it('Browse Trajectories in Folder lists one row per OpenHands instance and opens the one picked', async () => {
    const page = fx.page;
    await explorerMenu(page, 'agent-runs', 'Browse Trajectories in Folder…');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.nth(2).waitFor({ state: 'visible', timeout: 60_000 });
    const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    assert.equal(labels.length, 3, JSON.stringify(labels));
    assert.match(labels[0], /ponylang__ponyc-4593/);
    assert.match(labels[1], /ponylang__ponyc-4595/);
    assert.match(labels[2], /pydicom__pydicom-1458/);
    const details = (await page.locator('.quick-input-widget .quick-input-list').innerText()).replace(/\s+/g, ' ');
    assert.match(details, /output\.jsonl · openhands v0-events/);
    await screenshot(page, 'trajectory-formats-00-folder-openhands');
    await rows.nth(0).click();
    const frame = await webviewFrame(page, /ponylang__ponyc-4593\s*openhands/, { timeoutMs: 60_000 });
    await frame.locator('#step-0').waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'trajectory-formats-01-openhands-instance');
  });

  it('fails at once on a file nothing can be read from, with the CLI’s words', async () => {
    const page = fx.page;
    const clicked = Date.now();
    await explorerMenu(page, 'traj_safety-backdoor.json', 'Open Trajectory…');
    const frame = await webviewFrame(page, /nothing could be read from/, { timeoutMs: 20_000 });
    process.stderr.write(`[trajectory-formats] unreadable file failed ${Date.now() - clicked} ms after the click\n`);
    const text = await frame.locator('.failure').innerText();
    assert.match(text, /traj_safety-backdoor\.json \(no steps, no submission\)/);
    assert.match(text, /not a trajectory format ChainLens knows/);
  });

  it('says a predictions file is one, instead of "No steps yet."', async () => {
    const page = fx.page;
    await explorerMenu(page, 'preds.json', 'Open Trajectory…');
    const frame = await webviewFrame(page, /is a predictions file/, { timeoutMs: 30_000 });
    assert.match(
      await frame.locator('.problems').innerText(),
      /preds\.json is a predictions file \(preds-json\): it holds each instance's submitted patch, not the agent's steps/,
    );
  });

  it('Compare Trajectories from the palette picks two files one after the other and aligns them by action', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Compare Trajectories…');
    await acceptInFileDialog(page, join(fx.workspace.dir, 'agent-runs', TRAJ));
    await page
      .locator('.quick-input-widget', { hasText: `Compare ${TRAJ} with` })
      .waitFor({ state: 'visible', timeout: 15_000 });
    await acceptInFileDialog(page, join(fx.workspace.dir, 'other-run.traj'));
    const frame = await webviewFrame(page, /Aligned by action/, { timeoutMs: 60_000 });
    const rows = frame.locator('table.compare tbody tr');
    await rows.nth(12).waitFor({ state: 'visible', timeout: 30_000 });
    // 12 and 11 steps, 10 done by both: 13 rows, three of them facing a gap
    assert.equal(await rows.count(), 13);
    assert.equal(await frame.locator('table.compare tbody td.cell.none').count(), 3);
    assert.match(await frame.locator('.compare-title').innerText(), /12 and 11 steps, 10 done by both/);
    const view = rows.filter({ has: frame.locator('td.index', { hasText: /^4 · 3$/ }) });
    assert.equal(await view.count(), 1);
    const cells = await view.locator('td.cell').allInnerTexts();
    assert.deepEqual(
      cells.map((c) => c.trim().replace(/\s+/g, ' ')),
      ['view numpy_handler.py 273-372', 'view numpy_handler.py 273-372'],
    );
    await screenshot(page, 'trajectory-formats-02-compare-aligned');
  });
});
