// Inside a real VS Code extension host, with a chain run open in the workspace: Run Batch… with
// the options a person picks in its dialogs and no run directory chosen (the default place). The
// e2e file (batchInWorkTree.test.ts) then checks the work tree.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, suiteSetup, test } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';

suite('Batch with a chain open', () => {
  suiteSetup(async () => {
    const api = await vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens')!.activate();
    await api.ready;
  });

  test('Run Batch with the default run directory, a chain run open in the workspace', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await vscode.commands.executeCommand('chainlens.batch.run', {
      dataset: ['invoicekit.chain.json'],
      sources: ['gold'],
      repo: folder,
      modes: ['oracle'],
      workers: 2,
    });
    assert.ok(true);
  }, 300_000);
});
