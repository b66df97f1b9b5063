// The ChainLens agent tools in a real VS Code (code-server): registered as language-model tools
// and callable with vscode.lm.invokeTool from an extension-host suite (exthost/agentTools.suite.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { assertSuitePassed, openWorkbench, readExtensionHostLog, repoRoot, runCommand, runExtensionHostSuite, screenshot, startCodeServer, type CodeServer, type Workbench } from './harness';
import { makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';

describe('ChainLens agent tools in the extension host', () => {
  let demo: DemoWorkspace;
  let server: CodeServer;
  let wb: Workbench;

  before(async () => {
    demo = makeDemoWorkspace({ checkout: true });
    server = await startCodeServer({ workspace: demo.dir, extensionDevPath: repoRoot });
    wb = await openWorkbench(server);
  });

  after(async () => {
    await wb?.close();
    await server?.stop();
    demo?.remove();
  });

  it('an agent solves step 1 through vscode.lm.invokeTool; a person takes step 2 over', async () => {
    const report = await runExtensionHostSuite(server, join(__dirname, 'exthost', 'agentTools.suite.ts'), { timeoutMs: 300_000, testTimeoutMs: 60_000 });
    assertSuitePassed(report);
    assert.equal(report.tests.length, 6);
    const log = readExtensionHostLog(server);
    assert.doesNotMatch(log, /registerMcpServerDefinitionProvider.*(error|fail)/i);
    await screenshot(wb.page, 'agent-tools-after-suite');
  });

  it('VS Code lists the ChainLens MCP server announced by the definition provider', async () => {
    await runCommand(wb.page, 'MCP: List Servers');
    const row = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'ChainLens' });
    await row.first().waitFor({ state: 'visible', timeout: 20_000 });
    await wb.page.mouse.move(5, 400);
    const label = (await row.first().getAttribute('aria-label')) ?? (await row.first().innerText());
    assert.match(label, /ChainLens/);
    console.log(`MCP server row: ${label}`);
    await screenshot(wb.page, 'agent-tools-mcp-servers');
    await wb.page.keyboard.press('Escape');
  });
});
