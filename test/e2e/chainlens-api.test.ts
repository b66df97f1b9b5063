// ChainLens through the VS Code API inside a real extension host (exthost/chainlens.suite.ts), and
// in Restricted Mode: the chain opens, but no container starts and the UI says why.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  assertSuitePassed,
  openWorkbench,
  repoRoot,
  runCommand,
  runExtensionHostSuite,
  screenshot,
  startCodeServer,
  waitForLog,
  waitForNotification,
  type CodeServer,
  type Workbench,
} from './harness';
import { makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';
import { showTestingView, treeItem } from './exthost/workbenchHelpers';

const suites = join(__dirname, 'exthost');

describe('ChainLens API in the extension host', () => {
  let demo: DemoWorkspace;
  let server: CodeServer;
  let wb: Workbench;

  before(async () => {
    demo = makeDemoWorkspace();
    server = await startCodeServer({ workspace: demo.dir, extensionDevPath: repoRoot });
    wb = await openWorkbench(server);
  });

  after(async () => {
    await wb?.close();
    await server?.stop();
    demo?.remove();
  });

  it('opens, evaluates, submits, reports and switches mode through commands and services', async () => {
    const report = await runExtensionHostSuite(server, join(suites, 'chainlens.suite.ts'), { timeoutMs: 600_000, testTimeoutMs: 20_000 });
    assertSuitePassed(report);
    assert.equal(report.tests.length, 11);
    await screenshot(wb.page, 'chainlens-api-after-suite');
  });
});

describe('ChainLens in Restricted Mode', () => {
  let demo: DemoWorkspace;
  let server: CodeServer;
  let wb: Workbench;

  before(async () => {
    demo = makeDemoWorkspace({ checkout: true });
    server = await startCodeServer({ workspace: demo.dir, extensionDevPath: repoRoot, workspaceTrust: true });
    wb = await openWorkbench(server);
  });

  after(async () => {
    await wb?.close();
    await server?.stop();
    demo?.remove();
  });

  it('shows the run but starts no container; the Testing view and a notification say why', async () => {
    const page = wb.page;
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ state: 'visible' });
    assertSuitePassed(await runExtensionHostSuite(server, join(suites, 'restricted.suite.ts'), { timeoutMs: 120_000 }));
    // The suite's refusals (open, submit, switch) each left a notification; start from none.
    await runCommand(page, 'Notifications: Clear All Notifications');
    await runCommand(page, 'ChainLens: Run Step Tests');
    const message = await waitForNotification(page, /starts no containers/);
    assert.match(message, /^Restricted Mode: ChainLens starts no containers in an untrusted workspace .*Trust this folder to run them\.$/);
    await waitForLog(server, /step 1: Restricted Mode/, { channel: 'ChainLens' });
    await showTestingView(page, 1);
    await treeItem(page, /^test_parse_negative\[minus-code\].*Errored/i);
    await screenshot(page, 'chainlens-09-restricted-mode');
  });
});
