// The ChainLens agent tools in a real VS Code (code-server): registered as language-model tools
// and callable with vscode.lm.invokeTool from an extension-host suite (exthost/agentTools.suite.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  assertSuitePassed,
  openChainLensWorkbench,
  readExtensionHostLog,
  runCommand,
  runExtensionHostSuite,
  screenshot,
  type ChainLensWorkbench,
} from './harness';
import { makeDemoWorkspace } from './exthost/demoWorkspace';

describe('ChainLens agent tools in the extension host', () => {
  let fx: ChainLensWorkbench;
  before(async () => {
    fx = await openChainLensWorkbench({ workspace: () => makeDemoWorkspace({ checkout: true }) });
  });
  after(() => fx?.close());

  it('an agent solves step 1 through vscode.lm.invokeTool; a person takes step 2 over', async () => {
    const report = await runExtensionHostSuite(fx.server, join(__dirname, 'exthost', 'agentTools.suite.ts'), {
      timeoutMs: 300_000,
      testTimeoutMs: 60_000,
    });
    assertSuitePassed(report);
    assert.equal(report.tests.length, 7);
    const log = readExtensionHostLog(fx.server);
    assert.doesNotMatch(log, /registerMcpServerDefinitionProvider.*(error|fail)/i);
    await screenshot(fx.page, 'agent-tools-after-suite');
  });

  it('VS Code lists the ChainLens MCP server announced by the definition provider', async () => {
    await runCommand(fx.page, 'MCP: List Servers');
    const row = fx.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ hasText: 'ChainLens' });
    await row.first().waitFor({ state: 'visible', timeout: 20_000 });
    await fx.page.mouse.move(5, 400);
    const label = (await row.first().getAttribute('aria-label')) ?? (await row.first().innerText());
    assert.match(label, /ChainLens/);
    console.log(`MCP server row: ${label}`);
    await screenshot(fx.page, 'agent-tools-mcp-servers');
    await fx.page.keyboard.press('Escape');
  });
});
