// The e2e harness proven end to end on a tiny fixture extension: a real code-server 4.104
// (VS Code 1.104) in Debian's Chromium, driven like a person would, plus an API-level suite
// run inside its extension host.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  assertSuitePassed,
  clickTreeItem,
  editorText,
  openChainLensWorkbench,
  openFile,
  readExtensionHostLog,
  runCommand,
  runExtensionHostSuite,
  screenshot,
  startCodeServer,
  tempWorkspace,
  typeInEditor,
  waitForLog,
  waitForNotification,
  webviewFrame,
  type ChainLensWorkbench,
} from './harness';

const fixtures = join(__dirname, 'fixtures');

describe('e2e harness: code-server + Chromium + the smoke extension', () => {
  let fx: ChainLensWorkbench | undefined;

  before(async () => {
    fx = await openChainLensWorkbench({
      workspace: () =>
        tempWorkspace('chainlens-smoke-ws-', (dir) => writeFileSync(join(dir, 'hello.py'), 'print("hello")\n')),
      extensionDevPath: join(fixtures, 'smoke-extension'),
    });
    process.stderr.write(
      `[smoke] code-server healthy after ${fx.server.startupMs} ms; workbench after ${fx.wb.timings.workbenchMs} ms, ` +
        `extension host up after ${fx.wb.timings.extensionHostMs} ms\n`,
    );
  });

  after(async () => {
    const root = fx?.server.root;
    await fx?.close();
    if (root && !process.env.CHAINLENS_E2E_KEEP) assert.equal(existsSync(root), false, 'stop() removes the temp root');
  });

  it('shows the workbench with the workspace and the contributed view', async () => {
    const page = fx!.page;
    await page.getByRole('treeitem', { name: 'hello.py' }).waitFor({ state: 'visible' });
    await page.locator('.pane-header', { hasText: /smoke items/i }).waitFor({ state: 'visible' });
    await screenshot(page, 'smoke-01-workbench');
  });

  it('runs a command from the command palette and shows its notification', async () => {
    await runCommand(fx!.page, 'ChainLens Smoke: Say Hello');
    const message = await waitForNotification(fx!.page, /Hello from the smoke extension/);
    assert.equal(message, `Hello from the smoke extension: 1 entries in ${basename(fx!.workspace.dir)}`);
    await screenshot(fx!.page, 'smoke-02-notification');
  });

  it('fails clearly for a command the palette does not have', async () => {
    await assert.rejects(
      runCommand(fx!.page, 'ChainLens Smoke: No Such Command', { timeoutMs: 2000 }),
      /is not in the command palette/,
    );
  });

  it('clicks a tree item; the extension logs it to its output channel', async () => {
    await clickTreeItem(fx!.page, 'beta', { view: 'Smoke Items' });
    await waitForNotification(fx!.page, /^Picked beta$/);
    await waitForLog(fx!.server, /picked beta/, { channel: 'ChainLens Smoke' });
    // --log debug makes the host log name each activation, with its activation event.
    assert.match(readExtensionHostLog(fx!.server), /chainlens-test\.smoke-extension/);
  });

  it('opens a file through quick open and types into the editor', async () => {
    await openFile(fx!.page, 'hello.py');
    await typeInEditor(fx!.page, '# typed by the e2e test\n');
    // The editor renders the last key a moment after it was typed: read until it has (or time is up).
    const expected = /^# typed by the e2e test\nprint\("hello"\)/;
    let text = await editorText(fx!.page);
    for (const until = Date.now() + 5000; !expected.test(text) && Date.now() < until; text = await editorText(fx!.page))
      await fx!.page.waitForTimeout(100);
    assert.match(text, expected);
    await screenshot(fx!.page, 'smoke-03-editor');
  });

  it('opens a webview panel; a click in it round-trips through the extension host', async () => {
    await runCommand(fx!.page, 'ChainLens Smoke: Show Panel');
    const panel = await webviewFrame(fx!.page, /Smoke Panel/);
    await panel.getByRole('button', { name: 'Count' }).click();
    await panel.getByText('extension saw 1 click(s)').waitFor();
    await waitForLog(fx!.server, /webview click 1/, { channel: 'ChainLens Smoke' });
    await screenshot(fx!.page, 'smoke-04-webview');
  });

  it('runs an API-level suite inside the extension host of that VS Code', async () => {
    const report = await runExtensionHostSuite(fx!.server, join(fixtures, 'exthost-suites', 'smoke.suite.ts'));
    assertSuitePassed(report);
    assert.equal(report.exthostPid, fx!.wb.exthostPid);
    assert.deepEqual(
      report.tests.map((t) => t.fullTitle),
      [
        'smoke extension through the VS Code API › is installed and active, and exports its items',
        'smoke extension through the VS Code API › registers its commands',
        'smoke extension through the VS Code API › hello lists the workspace folder the harness opened',
        'smoke extension through the VS Code API › sees what the UI typed into the open editor',
      ],
    );
  });

  it('reports extension-host failures and timeouts with their source lines', async () => {
    const report = await runExtensionHostSuite(fx!.server, join(fixtures, 'exthost-suites', 'failing.suite.ts'));
    assert.equal(report.passed, 1);
    assert.equal(report.failed, 2);
    const [, assertion, hang] = report.tests;
    assert.equal(assertion.state, 'failed');
    assert.match(assertion.error?.message ?? '', /42/);
    assert.match(assertion.error?.stack ?? '', /failing\.suite\.ts:\d+/);
    assert.match(hang.error?.message ?? '', /timed out after 300 ms/);
    assert.throws(() => assertSuitePassed(report), /a failing assertion/);
  });
});

describe('e2e harness: installing a .vsix', () => {
  it('installs the package next to the runner extension before the server starts', async (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'chainlens-vsix-'));
    t.after(() => rmSync(tmp, { recursive: true, force: true }));
    // A .vsix is a zip with the extension under extension/; python3's zipfile builds one offline.
    mkdirSync(join(tmp, 'stage'));
    cpSync(join(fixtures, 'smoke-extension'), join(tmp, 'stage', 'extension'), { recursive: true });
    execFileSync('python3', ['-m', 'zipfile', '-c', join(tmp, 'smoke.vsix'), 'extension'], { cwd: join(tmp, 'stage') });
    mkdirSync(join(tmp, 'ws'));

    const server = await startCodeServer({ workspace: join(tmp, 'ws'), vsixPath: join(tmp, 'smoke.vsix'), t });
    const installed = join(server.extensionsDir, 'chainlens-test.smoke-extension-0.0.1');
    assert.equal(lstatSync(installed).isDirectory(), true, 'unpacked from the .vsix, not linked');
    const manifest = JSON.parse(readFileSync(join(server.extensionsDir, 'extensions.json'), 'utf8')) as {
      identifier: { id: string };
    }[];
    assert.deepEqual(manifest.map((e) => e.identifier.id).sort(), [
      'chainlens-test.exthost-runner',
      'chainlens-test.smoke-extension',
    ]);
    await server.stop();
    assert.equal(existsSync(server.root), false);
  });

  it('names the file when the .vsix is not a valid package', async (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'chainlens-vsix-'));
    t.after(() => rmSync(tmp, { recursive: true, force: true }));
    writeFileSync(join(tmp, 'broken.vsix'), 'not a zip');
    await assert.rejects(
      startCodeServer({ workspace: tmp, vsixPath: join(tmp, 'broken.vsix'), t }),
      /installing .*broken\.vsix failed/,
    );
  });
});

describe('e2e harness: workspace trust on', () => {
  it('opens the folder in Restricted Mode, where the smoke extension does not run', async (t) => {
    const { server, page } = await openChainLensWorkbench({
      workspace: () => tempWorkspace('chainlens-untrusted-ws-'),
      extensionDevPath: join(fixtures, 'smoke-extension'),
      workspaceTrust: true,
      t,
    });
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ state: 'visible' });
    await screenshot(page, 'smoke-05-restricted-mode');
    assertSuitePassed(await runExtensionHostSuite(server, join(fixtures, 'exthost-suites', 'restricted.suite.ts')));
    await assert.rejects(
      runCommand(page, 'ChainLens Smoke: Say Hello', { timeoutMs: 3000 }),
      /is not in the command palette/,
    );
  });
});
