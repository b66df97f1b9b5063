// Inside a real VS Code extension host, on a SWE-CI task's work tree (made by `chainlens sweci
// init`): a person as Architect opens the iteration's Requirement editor beside the code and writes
// it, reads the test gap, then as Programmer changes the code and submits the iteration, which is
// graded in the task's image.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suite, suiteSetup, test } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';
import type { ChainLensServices } from '../../../src/vscode/services';
import { openTask } from '../../../src/app/sweci/openTask';

let services: ChainLensServices;
let folder: string;
let extensionPath: string;
const REQUIREMENT = '1. ops.mul(a, b) returns the product of a and b.';

suite('SWE-CI in VS Code', () => {
  suiteSetup(async () => {
    const extension = vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens')!;
    const api = await extension.activate();
    await api.ready;
    services = api.services;
    extensionPath = extension.extensionPath;
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.equal(services.run?.chain.format, 'swe-ci');
    assert.equal(services.run?.state.currentStep, 1);
  });

  test('Open SWE-CI Requirement opens the iteration’s document beside the code, outside the work tree', async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(join(folder, 'src/calckit/ops.py')));
    await vscode.commands.executeCommand('chainlens.sweci.openRequirement');
    const editor = vscode.window.activeTextEditor!;
    assert.match(editor.document.uri.fsPath, /iteration-1[\\/]requirement\.md$/);
    assert.ok(!editor.document.uri.fsPath.startsWith(folder), editor.document.uri.fsPath);
    assert.equal(editor.viewColumn, vscode.ViewColumn.Two);
    await editor.edit((e) =>
      e.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), `# Requirement, iteration 1\n\n${REQUIREMENT}\n`),
    );
    assert.ok(await editor.document.save());
  }, 150_000);

  test('Show SWE-CI Test Gap lists the four oracle tests that do not pass yet, with why', async () => {
    await vscode.commands.executeCommand('chainlens.sweci.showGap');
    const doc = vscode.window.visibleTextEditors
      .map((e) => e.document)
      .find((d) => d.uri.scheme === 'chainlens-sweci-gap');
    assert.ok(doc, 'the gap document is open');
    const text = doc.getText();
    assert.match(text, /Iteration 1 of at most 6\. 2 tests pass now \(base 2, oracle 6\); 4 oracle test\(s\)/);
    for (const t of ['test_mul', 'test_div', 'test_power', 'test_neg'])
      assert.match(text, new RegExp(`tests/test_ops\\.py::${t}`));
    assert.match(text, /Test failed\. Reason: AttributeError/);
  }, 150_000);

  test('Submit SWE-CI Iteration commits the change and records its passing tests; the gap shrinks', async () => {
    const c1 = join(extensionPath, 'test/fixtures/sweci/commits/c1/src/calckit/ops.py');
    writeFileSync(join(folder, 'src/calckit/ops.py'), readFileSync(c1, 'utf8'));
    await vscode.commands.executeCommand('chainlens.sweci.submitIteration');
    const { record, store } = await openTask(folder, undefined, false);
    assert.equal(record.iterations.length, 1);
    assert.equal(record.iterations[0].run.passed.length, 3);
    assert.deepEqual(record.iterations[0].regressions, []);
    assert.equal(record.iterations[0].gap.length, 3);
    assert.equal(record.iterations[0].architect, 'human');
    assert.match(store.readRequirement(record.runId, 1)!, new RegExp(REQUIREMENT.replace(/[.()]/g, '\\$&')));
    assert.equal(services.run?.state.currentStep, 2);
  }, 240_000);
});
