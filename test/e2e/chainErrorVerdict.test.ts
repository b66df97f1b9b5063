// A chain error's evidence in a real VS Code (code-server). Before the window opens, the built CLI
// (dist/cli.js, as a user runs it) grades the demo chain with the demo agent's predictions under
// Oracle and Seq (6 containers) and gathers the evidence of its one chain error (step 2: gold 2
// fails on the Seq start state, and passes once step 1 is gold: poisoned by step 1). The Batch Runs
// view shows that verdict beside the step, its tooltip the evidence in words, and Open Inherited
// Difference on the step opens the difference between its Oracle and Seq start states: step 1's
// partial fix against gold 1. Screenshots: test-results/chain-error-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clickTreeItem,
  editorText,
  hoverUntil,
  openChainLensWorkbench,
  repoRoot,
  runCommand,
  screenshot,
  treeItemMenu,
  type ChainLensWorkbench,
} from './harness';
import { makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';

const CHAIN = 'chainlens-demo_invoicekit_20240312';
const RUN = 'demo-undershoot';
// The view lists the run directories of its runs folder (setting chainlens.batch.runsFolder):
// this file's own, so batches of other e2e files in the shared data directory stay out of it.
const RUNS = mkdtempSync(join(tmpdir(), 'chainlens-e2e-runs-'));

/** The demo workspace with a finished batch and its evidence, made by the built CLI as a process. */
function workspaceWithEvidence(): DemoWorkspace {
  const ws = makeDemoWorkspace();
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), ...args], {
      cwd: ws.dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const runDir = join(RUNS, RUN);
  cli(
    'batch',
    'invoicekit.chain.json',
    '--run-dir',
    runDir,
    '--repo',
    '.',
    '--predictions',
    'demo=demo-agent.predictions.jsonl',
    '--mode',
    'oracle,seq',
    '--workers',
    '2',
  );
  assert.match(cli('evidence', runDir), /1 chain error\(s\) with evidence/);
  return ws;
}

describe('a chain error in VS Code: its evidence beside the step, and the inherited difference', () => {
  let fx: ChainLensWorkbench<DemoWorkspace>;
  before(async () => {
    fx = await openChainLensWorkbench({
      workspace: workspaceWithEvidence,
      viewport: { width: 1500, height: 950 },
      settings: { 'chainlens.batch.runsFolder': RUNS },
    });
  });
  after(async () => {
    await fx?.close();
    rmSync(RUNS, { recursive: true, force: true });
  });

  it('the Runs view says step 2 is a chain error poisoned by step 1, and its tooltip says how that was found', async () => {
    const page = fx.page;
    await runCommand(page, 'ChainLens: Focus on Batch Runs View');
    const run = page.getByRole('treeitem', { name: new RegExp(`^${RUN}, finished · 6/6 done`) }).first();
    await run.waitFor({ state: 'visible', timeout: 30_000 });
    await run.locator('.monaco-tl-twistie').click();
    await clickTreeItem(page, /^demo · seq, 3\/3 done · 1 resolved/);
    await clickTreeItem(page, new RegExp(`^${CHAIN}, 3/3 done`));
    const step = page.getByRole('treeitem', {
      name: new RegExp(`^${CHAIN} demo seq step 2, unresolved · chain error, poisoned by step 1$`),
    });
    await step.first().waitFor({ state: 'visible', timeout: 15_000 });
    // Only the step after the chain error's cause carries a verdict: step 3 is resolved, step 1 not downstream.
    assert.equal(await page.getByRole('treeitem', { name: /chain error/ }).count(), 1);
    const hover = page.locator('.monaco-hover, .custom-hover, .workbench-hover').filter({ hasText: 'evidence:' });
    await hoverUntil(page, step.first(), hover, { shot: 'chain-error-00-tooltip-missing' });
    assert.match(await hover.first().innerText(), /evidence: poisoned by step 1/);
    await screenshot(page, 'chain-error-01-verdict-in-runs-view');
  });

  it('Open Inherited Difference on the step shows its Oracle start state against its Seq start state', async () => {
    const page = fx.page;
    await treeItemMenu(page, new RegExp(`^${CHAIN} demo seq step 2, `), 'Open Inherited Difference');
    await page
      .locator('.tabs-container .tab')
      .filter({ hasText: /Untitled/ })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.editor-group-container.active .view-line').first().waitFor({ state: 'visible' });
    const text = await editorText(page);
    assert.match(text, new RegExp(`^# Inherited difference of ${CHAIN} step 2 \\(position 2\\), source demo:`, 'm'));
    assert.match(text, /^# from its Oracle start state \(base \+ gold 1\.\.1\) to its Seq start state\./m);
    // Step 1's own patch against gold 1: the two start states differ in parse.py.
    assert.match(text, /^diff --git a\/invoicekit\/parse\.py b\/invoicekit\/parse\.py$/m);
    await screenshot(page, 'chain-error-02-inherited-difference');
  });
});
