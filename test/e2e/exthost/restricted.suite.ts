// Inside the extension host of a VS Code that opened an untrusted ChainLens work tree
// (Restricted Mode): the run is shown from its state files, and nothing runs git or a container.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  test('the agent tools (language-model tools) refuse too: submit_step answers why and runs no git', async () => {
    const run = api.services.run!;
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    // What git would change on a submit, read as plain files (running git here is what must not happen).
    const branch = join(folder, '.git', 'refs', 'heads', 'chainlens', run.state.runId);
    const runFile = join(run.workspace.store.root, 'runs', `${run.state.runId}.json`);
    const before = [readFileSync(branch, 'utf8'), readFileSync(runFile, 'utf8')];
    writeFileSync(join(folder, 'invoicekit', 'agent-edit.py'), '# an agent would submit this\n');
    try {
      const cts = new vscode.CancellationTokenSource();
      const result = await vscode.lm.invokeTool(
        'chainlens_submit_step',
        { input: {}, toolInvocationToken: undefined },
        cts.token,
      );
      const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.match(text, /^Error: Restricted Mode: ChainLens's submit_step tool runs git in this folder/);
      assert.deepEqual([readFileSync(branch, 'utf8'), readFileSync(runFile, 'utf8')], before);
      assert.equal(api.services.run!.state.currentStep, 1);
    } finally {
      rmSync(join(folder, 'invoicekit', 'agent-edit.py'), { force: true });
    }
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
