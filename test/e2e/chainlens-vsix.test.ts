// `npm run package` builds a .vsix that a real VS Code installs and runs: it activates on a
// ChainLens work tree by itself (workspaceContains), shows the run, and what it loads at run
// time is in the package. Prints the package size and the activation time from the host log.
// At activation it removes the container a killed ChainLens process of this machine left behind.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertSuitePassed,
  openChainLensWorkbench,
  readExtensionHostLog,
  repoRoot,
  runExtensionHostSuite,
  screenshot,
  waitForLog,
  type ChainLensWorkbench,
} from './harness';
import { makeDemoWorkspace } from './exthost/demoWorkspace';
import { startEngineProxy, type EngineProxy } from './harness/engineProxy';
import { treeItem } from './exthost/workbenchHelpers';

/** This file's own containers, by a label no other test uses. */
const ORPHAN_LABEL = `chainlens.test.vsix-orphan=${process.pid}`;
const orphans = () =>
  execFileSync('docker', ['ps', '-aq', '--filter', `label=${ORPHAN_LABEL}`], { encoding: 'utf8' }).trim();

/** A container as a ChainLens process that was then killed with SIGKILL leaves it: its owner has ended. */
function leaveOrphan(): string {
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const labels = {
    'chainlens.managed': 'true',
    'chainlens.run': 'vsix-orphan',
    'chainlens.pid': ended.stdout,
    'chainlens.pid-start': '',
    'chainlens.host': hostname(),
  };
  return execFileSync(
    'docker',
    [
      'create',
      '--label',
      ORPHAN_LABEL,
      ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
      'chainlens/base:bookworm',
      'true',
    ],
    { encoding: 'utf8' },
  ).trim();
}

describe('ChainLens from its .vsix', () => {
  let fx: ChainLensWorkbench;
  let scratch: string;
  let vsix: string;
  let orphan: string;
  let engine: EngineProxy;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'chainlens-vsix-'));
    // This window's ChainLens reaches the engine through a socket of this test's own, so what it
    // asked is told apart from the sweeps of other ChainLens processes on the machine.
    engine = await startEngineProxy(join(scratch, 'docker.sock'));
    orphan = leaveOrphan();
    vsix = join(scratch, 'chainlens.vsix');
    execFileSync(process.execPath, [join(repoRoot, 'scripts', 'package.mjs'), '--out', vsix], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    fx = await openChainLensWorkbench({
      workspace: () => makeDemoWorkspace({ checkout: true }),
      vsixPath: vsix,
      settings: { 'chainlens.docker.host': engine.host },
    });
  });

  after(async () => {
    await fx?.close();
    await engine?.close();
    const left = orphans();
    if (left) execFileSync('docker', ['rm', '-f', ...left.split('\n')], { stdio: 'ignore' });
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('is a small package', () => {
    const mb = statSync(vsix).size / 1024 / 1024;
    process.stderr.write(`[chainlens e2e] ${vsix}: ${mb.toFixed(2)} MB\n`);
    assert.ok(mb < 5, `the .vsix is ${mb.toFixed(2)} MB: something that should be bundled or ignored got in`);
  });

  it('activates by itself on a ChainLens work tree and shows its run', async () => {
    const activation = await waitForLog(
      fx.server,
      /(\d\d:\d\d:\d\d\.\d{3}) \[info\] ExtensionService#_doActivateExtension chainlens\.chainlens, startup: \w+, activationEvent: '([^']+)'/,
    );
    // Whichever declared event came first (the MCP server definition provider may activate it
    // at startup); what matters is that the run is resumed with no action from the person.
    const declared = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      activationEvents: string[];
      contributes: { mcpServerDefinitionProviders?: { id: string }[] };
    };
    const implicit = (declared.contributes.mcpServerDefinitionProviders ?? []).map((p) => `onMcpCollection:${p.id}`);
    assert.ok([...declared.activationEvents, ...implicit].includes(activation[2]), `activated by ${activation[2]}`);
    const activated = await waitForLog(
      fx.server,
      /(\d\d:\d\d:\d\d\.\d{3}) \[info\] ChainLens [\d.]+ activated in (\d+) ms/,
      { channel: 'ChainLens' },
    );
    const ms = (t: string): number => Date.parse(`1970-01-01T${t}Z`);
    process.stderr.write(
      `[chainlens e2e] activation (packaged, by ${activation[2]}): activate() ${activated[2]} ms; host log activation start to activated ${ms(activated[1]) - ms(activation[1])} ms\n`,
    );
    const page = fx.page;
    await page.locator('.activitybar .action-item a[aria-label="ChainLens"]').click();
    await treeItem(page, /^Step 1, chainlens-demo__invoicekit-101, current/);
    await page.locator('.statusbar-item', { hasText: 'step 1/3 · Seq' }).waitFor({ state: 'visible' });
    await screenshot(page, 'chainlens-10-vsix-resumed');
    assert.doesNotMatch(readExtensionHostLog(fx.server), /Activating extension chainlens\.chainlens failed/);
  });

  it('removes, shortly after activation, the container a killed ChainLens process left (no evaluation asked for)', async () => {
    // Every ChainLens process on this machine sweeps (as designed), so another one may remove the
    // orphan first. What this window's ChainLens must do holds either way: list the engine's
    // ChainLens containers shortly after activation, and remove the orphan if the list held it.
    const deadline = Date.now() + 60_000;
    const listing = () =>
      engine.exchanges.find((x) =>
        x.requests.some((r) => /^GET \S*\/containers\/json\?\S*chainlens\.managed/.test(decodeURIComponent(r))),
      );
    while (!listing() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const listed = listing();
    assert.ok(listed, `the extension listed its containers: ${engine.exchanges.flatMap((x) => x.requests).join('; ')}`);
    if (listed.answer.includes(orphan)) {
      await waitForLog(fx.server, /removed \d+ container\(s\) left behind by ChainLens processes that were killed/, {
        channel: 'ChainLens',
      });
      const removal = engine.exchanges
        .flatMap((x) => x.requests)
        .find((r) => r.startsWith(`DELETE `) && r.includes(orphan));
      assert.ok(removal, 'the extension removed the orphan it listed');
    }
    assert.equal(orphans(), '');
  });

  it('ships a CLI that runs from the package: every command and subcommand answers --help, sweci commands run', () => {
    const unpacked = join(scratch, 'unpacked');
    execFileSync('python3', ['-m', 'zipfile', '-e', vsix, unpacked]);
    const bin = join(unpacked, 'extension', 'dist', 'cli.js');
    const cli = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: scratch });
    const names = (help: string) => [...help.matchAll(/^ {2}([a-z][\w-]*) {2,}\S/gm)].map((m) => m[1]);
    for (const command of names(cli('--help').stdout)) {
      const help = cli(command, '--help');
      assert.equal(help.status, 0, `${command} --help: ${help.stderr}`);
      if (help.stdout.startsWith(`usage: chainlens ${command} <subcommand>`))
        for (const sub of names(help.stdout)) {
          const h = cli(command, sub, '--help');
          assert.match(
            h.stdout,
            new RegExp(`^usage: chainlens ${command} ${sub}\\b`),
            `${command} ${sub}: ${h.stderr}`,
          );
        }
    }
    // A command that runs its code: an empty folder is not a SWE-CI run (exit 1, a message), never a crash (70).
    const score = cli('sweci', 'score', scratch);
    assert.equal(score.status, 1, score.stderr);
    assert.doesNotMatch(score.stderr, /internal error/);
  });

  it('loads its run-time files from the package (extension-host suite)', async () => {
    assertSuitePassed(
      await runExtensionHostSuite(fx.server, join(__dirname, 'exthost', 'packaged.suite.ts'), { timeoutMs: 120_000 }),
    );
  });
});
