// Runs inside the extension host (test/e2e/study.test.ts, the pack): a participant opens their
// pack in VS Code on their own machine and runs Start Study Session…; the window moves to the
// task's work tree; they solve blind, submit (not graded: the hidden tests stay with the
// researcher), and the results file they send back is written.
import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { suite, suiteSetup, test, waitFor } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';

let api: ChainLensApi;
let folder: string;

suite('A pack on the participant’s machine', () => {
  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens')!.activate();
    await api.ready;
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  });

  test('pack: start the session (the window then opens on the work tree: this host ends)', () => {
    void vscode.commands.executeCommand('chainlens.study.start', {
      studyFile: join(folder, 'study.json'),
      participant: 'p01',
      consented: true,
    });
  });

  test('pack: solve step 2 blind in the work tree alone, submit, the results file is written', async () => {
    assert.match(folder, /sessions\/p01\/invoicekit$/);
    const run = await waitFor('step 2', () => api.services.run?.state.currentStep === 2 && api.services.run, 60_000);
    assert.deepEqual(run.state.steps[1].author, { kind: 'human', name: 'p01' });
    const d = api.services.disclosure.current;
    assert.equal(d.blind, true);
    assert.equal(d.grading, false, 'no hidden tests here');
    appendFileSync(join(folder, 'invoicekit', 'parse.py'), '\n# solved in the pack\n');
    await vscode.commands.executeCommand('chainlens.submitStep', undefined, { confirm: false });
    await waitFor('the run to complete', () => api.services.run?.state.currentStep === null, 60_000);
    const results = join(dirname(dirname(dirname(folder))), 'results', 'p01.results.json');
    // Written again after each submission (asynchronously, after the run changed).
    await waitFor(
      'the results file with the submitted step',
      () => existsSync(results) && readFileSync(results, 'utf8').includes('solved in the pack'),
      30_000,
    );
  }, 120_000);
});
