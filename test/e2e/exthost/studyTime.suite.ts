// Runs inside the extension host (test/e2e/study.test.ts, "time records survive"): edits on the
// participant's step, and what the clock holds after the host was reloaded or killed.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suite, suiteSetup, test, waitFor as waitForProbe } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';
import { FLUSH_MS } from '../../../src/vscode/study/timeTracker';

let api: ChainLensApi;
let folder: string;

const waitFor = <T>(what: string, probe: () => T | undefined | false, timeoutMs = 120_000): Promise<T> =>
  waitForProbe(what, probe, timeoutMs);

const parsePy = (): vscode.Uri =>
  vscode.Uri.file(join(folder, 'sessions', 'p01', 'invoicekit', 'invoicekit', 'parse.py'));

async function edits(n: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(parsePy());
  for (let i = 0; i < n; i++) {
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.lineAt(doc.lineCount - 1).range.end, `# edit ${i}\n`);
    assert.ok(await vscode.workspace.applyEdit(edit));
  }
  // The periodic save, not an explicit flush: what a killed host would have left.
  await new Promise((r) => setTimeout(r, FLUSH_MS * 2 + 500));
}

suite('Time records', () => {
  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens')!.activate();
    await api.ready;
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  });

  test('start the session', async () => {
    await vscode.commands.executeCommand('chainlens.study.start', {
      studyFile: join(folder, 'study.json'),
      participant: 'p01',
      consented: true,
      // This test is about the clock across reloads, not the window a participant gets.
      stayInWindow: true,
    });
    await waitFor('step 2', () => api.services.run?.state.currentStep === 2);
    await waitFor('its clock', () => api.study.clock());
  }, 180_000);

  test('three edits', () => edits(3), 60_000);
  test('two more edits', () => edits(2), 60_000);

  test('the clock after a restart', async () => {
    // The session's task is reopened after activation and its clock goes on (saved at once,
    // with the reload counted: the node side reads it from disk).
    const clock = await waitFor('the resumed clock', () => api.study.clock());
    assert.ok(clock.reloads >= 1);
    assert.equal(api.services.run?.state.currentStep, 2);
  }, 120_000);
});
