// Inside the extension host of a VS Code that opened an untrusted ChainLens work tree
// (Restricted Mode): the run is shown from its state files, and nothing runs git or a container.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suite, suiteSetup, test } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';

let api: ChainLensApi;

suite('ChainLens in Restricted Mode', () => {
  suiteSetup(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the harness opened the folder untrusted');
    const extension = vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens');
    assert.ok(extension);
    api = await extension.activate();
    await api.ready;
  });

  test('resumes the work tree run read-only (activated by workspaceContains, no git needed)', () => {
    const run = api.services.run;
    assert.ok(run, 'the run of the work tree is shown');
    assert.equal(run.state.currentStep, 1);
    assert.equal(run.chain.steps.length, 3);
  });

  test('refuses to evaluate, saying why and how to change it', async () => {
    assert.match(api.services.evaluation.blockedReason() ?? '', /^Restricted Mode: ChainLens starts no containers/);
    await assert.rejects(
      api.services.evaluation.evaluate({ source: 'worktree' }),
      /Restricted Mode.*Trust this folder/,
    );
    assert.equal(api.services.evaluation.latest(1), undefined);
  });

  test('does not start, submit or switch runs (git hooks could run code)', async () => {
    const before = api.services.run!.state;
    await vscode.commands.executeCommand(
      'chainlens.openChain',
      vscode.Uri.file(join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'invoicekit.chain.json')),
      { repository: 'workspace', mode: 'oracle', authors: 'human,human,human' },
    );
    await vscode.commands.executeCommand('chainlens.submitStep', undefined, { confirm: false });
    await vscode.commands.executeCommand('chainlens.switchMode', 'oracle');
    const after = api.services.run!.state;
    assert.deepEqual(
      [after.runId, after.mode, after.currentStep, after.updatedAt],
      [before.runId, before.mode, before.currentStep, before.updatedAt],
    );
  });
});
