// ChainLens in a real VS Code (code-server + Chromium), where a person waits on it:
// - the trajectory viewer's first render: a ~100 MiB SWE-agent .traj opened from the Explorer's
//   context menu, from the click to the first step row drawn in the webview, against
//   `JSON.parse(readFileSync)` of the same file in a fresh `node` process (reading it at all);
// - activation, as VS Code measures it, in a fresh extension host (after a window reload), against
//   evaluating the same bundle (dist/extension.js, copied so Node compiles it again) in that host:
//   what activation adds beyond loading its code.
// Rounds are interleaved (A B, B A, ...); medians, spread and ratios are printed.
// Run: node --import tsx bench/viewer.ts [rounds=5] [targetMB=100]   (after `npm run build`)
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  assertSuitePassed,
  explorerMenu,
  openChainLensWorkbench,
  reloadWindow,
  runCommand,
  runExtensionHostSuite,
  tempWorkspace,
  webviewFrame,
} from '../test/e2e/harness';
import type { Page } from 'playwright-core';
import { formatFile } from '../test/helpers/formats';
import { interleave, report, timedProcess, type Side } from './lib/interleave';

const ROUNDS = Number(process.argv[2] ?? 5);
const TARGET_MB = Number(process.argv[3] ?? 100);
const BIG = 'big-run.traj';
/** Where bench/viewer.suite.ts leaves its figures (inside the opened workspace). */
const LOAD_FILE = '.chainlens-bench-load.jsonl';

/** ChainLens's activation time as the Running Extensions editor shows it ("Activation: 762ms"). */
async function chainLensActivationMs(page: Page): Promise<number> {
  // Activates ChainLens if nothing in this window has yet (its view is an activation event).
  await runCommand(page, 'ChainLens: Focus on Chain View');
  await runCommand(page, 'Developer: Show Running Extensions');
  const row = page
    .locator('.runtime-extensions-editor .monaco-list-row')
    .filter({ has: page.locator('.name', { hasText: /^ChainLens$/ }) });
  const time = row.first().locator('.activation-time');
  await time.waitFor({ state: 'visible', timeout: 60_000 });
  const text = await time.innerText();
  const ms = /Activation: (\d+)ms/.exec(text);
  if (!ms) throw new Error(`no activation time for ChainLens in the Running Extensions editor: "${text}"`);
  return Number(ms[1]);
}

/**
 * A real SWE-agent v1 run (the marshmallow fixture) grown to the target size the way long runs
 * grow: more steps, each carrying the query history so far.
 */
function writeBigTrajectory(path: string): void {
  const run = JSON.parse(
    readFileSync(formatFile('sweagent_v1_function_calling__marshmallow-code__marshmallow-1867.traj'), 'utf8'),
  ) as { trajectory: Record<string, unknown>[]; history: unknown[] };
  const steps = run.trajectory;
  const one = Buffer.byteLength(JSON.stringify(steps));
  const copies = Math.max(1, Math.round((TARGET_MB * 1024 * 1024) / one));
  run.trajectory = Array.from({ length: copies }, () => steps).flat();
  writeFileSync(path, JSON.stringify(run, null, 2));
}

async function main(): Promise<void> {
  const fx = await openChainLensWorkbench({
    workspace: () => tempWorkspace('chainlens-bench-viewer-', (dir) => writeBigTrajectory(join(dir, BIG))),
    viewport: { width: 1600, height: 1000 },
  });
  try {
    const file = join(fx.workspace.dir, BIG);
    const mb = statSync(file).size / (1024 * 1024);

    // Activation as VS Code measures it (Developer: Show Running Extensions: loading the code and
    // running activate()), once per fresh extension host; the bundle's evaluation in that host is
    // the floor. Reloading the window gives the next round a new host.
    const activation: { activateMs: number; loadMs: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (i > 0) await reloadWindow(fx.server, fx.wb);
      activation.push({ activateMs: await chainLensActivationMs(fx.page), loadMs: 0 });
      await runCommand(fx.page, 'View: Close All Editors');
      assertSuitePassed(
        await runExtensionHostSuite(fx.server, join(__dirname, 'viewer.suite.ts'), {
          exthostPid: fx.wb.exthostPid,
          timeoutMs: 120_000,
        }),
      );
    }
    const loads = readFileSync(join(fx.workspace.dir, LOAD_FILE), 'utf8').trim().split('\n');
    loads.forEach((line, i) => (activation[i].loadMs = (JSON.parse(line) as { loadMs: number }).loadMs));

    await runCommand(fx.page, 'View: Show Explorer');
    const chainlens: Side = {
      name: `ChainLens viewer, click to first step row (${mb.toFixed(0)} MiB .traj)`,
      run: async () => {
        await runCommand(fx.page, 'View: Close All Editors');
        const started = await explorerMenu(fx.page, BIG, 'Open Trajectory…');
        const frame = await webviewFrame(fx.page, /big-run/, { timeoutMs: 120_000 });
        await frame.locator('.step-list .row').first().waitFor({ state: 'visible', timeout: 120_000 });
        return performance.now() - started;
      },
    };
    const raw: Side = {
      name: 'node -e JSON.parse(readFileSync) of the same file (raw)',
      run: async () => {
        const r = await timedProcess(process.execPath, [
          '-e',
          'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))',
          file,
        ]);
        if (r.code !== 0) throw new Error(`JSON.parse failed: ${r.stderr}`);
        return r.ms;
      },
    };
    const measured = await interleave([raw, chainlens], ROUNDS);
    console.log(report(`trajectory viewer, first render; ${ROUNDS} interleaved rounds`, measured, raw.name));
    const loadName = 'evaluate dist/extension.js (raw)';
    console.log(
      report(
        `activation in a fresh extension host (VS Code's own figure); ${activation.length} rounds`,
        [
          { name: loadName, ms: activation.map((r) => r.loadMs) },
          { name: 'ChainLens activation (load + activate())', ms: activation.map((r) => r.activateMs) },
        ],
        loadName,
      ),
    );
  } finally {
    await fx.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
