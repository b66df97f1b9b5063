// Inside a real VS Code extension host: Run Batch… with its options as the command's argument
// (what a person picks in its dialogs), on the demo workspace. The e2e file (batch.test.ts)
// watches the progress notification and the Batch Runs view meanwhile, and cancels the batch
// from the notification.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, suiteSetup, test } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';

suite('Batch in VS Code', () => {
  suiteSetup(async () => {
    const api = await vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens')!.activate();
    await api.ready;
  });

  test('Run Batch evaluates the demo chain with gold in Oracle and Seq mode, one step at a time', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await vscode.commands.executeCommand('chainlens.batch.run', {
      dataset: ['invoicekit.chain.json'],
      sources: ['gold'],
      repo: folder,
      runDir: '.chainlens-batches/demo-gold',
      workers: 1,
    });
    assert.ok(true);
  }, 400_000);
});
