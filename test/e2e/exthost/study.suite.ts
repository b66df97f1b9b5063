// Runs inside the extension host (test/e2e/study.test.ts): a participant's AH task. Starting the
// session opens the window on the task's work tree alone (the next tests run in that window's
// host). While they solve step 2, nothing derived from gold exists in the extension's state or the
// window; edits, an idle gap and more edits are timed; the submission is graded and the
// annotations revealed.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { suite, suiteSetup, test, waitFor as waitForProbe } from '../harness/exthost/suite';
import type { ChainLensApi } from '../../../src/extension';

const ID = 'chainlens.chainlens';
let api: ChainLensApi;
let folder: string;
/** The window is the work tree's alone once the session started. */
const workTree = (): string => folder;
const parsePy = (): vscode.Uri => vscode.Uri.file(join(workTree(), 'invoicekit', 'parse.py'));

const waitFor = <T>(what: string, probe: () => T | undefined | false, timeoutMs = 60_000): Promise<T> =>
  waitForProbe(what, probe, timeoutMs);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function typeAtEnd(text: string): Promise<void> {
  const editor = await vscode.window.showTextDocument(parsePy());
  const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
  assert.ok(await editor.edit((b) => b.insert(end, text)));
}

suite('A study session: blind solving, time on task, submission', () => {
  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<ChainLensApi>(ID)!.activate();
    await api.ready;
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  });

  test('starting the session (the window then opens on the work tree: this host ends)', () => {
    // Not awaited: the command ends by opening the work tree in this window, which ends this host.
    void vscode.commands.executeCommand('chainlens.study.start', {
      studyFile: join(folder, 'study.json'),
      participant: 'p01',
      consented: true,
    });
  });

  test('the window holds the work tree alone; the agent step 1 is applied in place; the participant is on step 2, blind', async () => {
    assert.deepEqual(
      vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath),
      [folder],
    );
    assert.match(folder, /sessions\/p01\/invoicekit$/);
    // Quick open's files: the repository's own, nothing of the study folder.
    const files = (await vscode.workspace.findFiles('**/*')).map((u) => u.fsPath);
    assert.ok(files.length > 3);
    for (const f of files) {
      assert.ok(f.startsWith(folder + '/'), f);
      assert.doesNotMatch(f, /chain\.jsonl?$|predictions|study\.json|sessions\/p0[2-9]|rows\.|results/, f);
    }
    const run = await waitFor(
      'the study run on step 2',
      () => api.services.run?.state.currentStep === 2 && api.services.run,
    );
    assert.equal(run.state.steps[0].author.kind, 'recorded');
    assert.equal(run.state.steps[0].status, 'submitted');
    assert.deepEqual(run.state.steps[1].author, { kind: 'human', name: 'p01' });
    assert.equal(api.services.disclosure.current.blind, true);
    // The terminal names no data directory (the chain with its gold is there).
    const seen = join(tmpdir(), `chainlens-e2e-env-${process.pid}.txt`);
    const terminal = vscode.window.createTerminal({ name: 'participant', cwd: folder });
    terminal.sendText(`printf '[%s]' "\${CHAINLENS_DATA-unset}" > '${seen}'`);
    const env = await waitFor('the terminal to answer', () => existsSync(seen) && readFileSync(seen, 'utf8'), 30_000);
    terminal.dispose();
    assert.ok(env === '[]' || env === '[unset]', `CHAINLENS_DATA in the terminal: ${env}`);
  }, 180_000);

  test('while solving: no annotation, diagnostic, CodeLens, hover or gold document; gold refused', async () => {
    await typeAtEnd('\n\ndef participant_helper(text):\n    return text.strip()\n');
    await vscode.workspace.save(parsePy());
    // Give the annotation machinery every chance to (wrongly) run: its debounce is 600 ms.
    await api.annotations.refresh();
    await sleep(1500);
    assert.equal(api.annotations.current, undefined, 'nothing is analysed against gold');
    const ours = vscode.languages.getDiagnostics().flatMap(([, ds]) => ds.filter((d) => d.source === 'ChainLens'));
    assert.deepEqual(ours, [], 'no Problems entries');
    const lenses =
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', parsePy())) ?? [];
    assert.deepEqual(
      lenses.filter((l) => /gold/i.test(l.command?.title ?? '')),
      [],
    );
    const doc = await vscode.workspace.openTextDocument(parsePy());
    for (let line = 0; line < doc.lineCount; line += 7) {
      const hovers =
        (await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          parsePy(),
          new vscode.Position(line, 4),
        )) ?? [];
      const text = hovers
        .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
        .join('\n');
      assert.doesNotMatch(text, /gold|overshoot|undershoot|drift/i, `hover at line ${line + 1}`);
    }
    const run = api.services.run!;
    await assert.rejects(
      Promise.resolve(
        vscode.workspace.openTextDocument(
          vscode.Uri.from({ scheme: 'chainlens', path: `/version/${run.state.runId}/step-2/gold/invoicekit/parse.py` }),
        ),
      ),
      /not available/,
    );
    await assert.rejects(
      Promise.resolve(
        vscode.workspace.openTextDocument(
          vscode.Uri.from({ scheme: 'chainlens', path: `/patch/${run.state.runId}/step-2/gold.diff` }),
        ),
      ),
      /not available/,
    );
    assert.throws(
      () => api.services.disclosure.require('goldDocuments', 'Compare Step with Gold'),
      /Compare Step with Gold is not available: you are solving a step of the study 'e2e-study' blind/,
    );
    assert.equal(api.services.disclosure.current.testIds, false, 'feedback none: no F2P/P2P ids');
  }, 60_000);

  test('edit, idle past the gap, edit: the active clock leaves the gap out', async () => {
    const gapMs = 3000;
    await typeAtEnd('# first edit\n');
    await sleep(500);
    await typeAtEnd('# second edit\n');
    await sleep(gapMs + 2000);
    await typeAtEnd('# after the idle gap\n');
    api.study.flush();
    const clock = api.study.clock()!;
    assert.ok(clock, 'a clock runs for step 2');
    const idle = clock.pauses.filter((p) => p.reason === 'idle');
    assert.equal(idle.length >= 1, true, JSON.stringify(clock.pauses));
    const wall = clock.lastActivityAt - clock.startedAt;
    assert.ok(clock.activeMs <= wall - gapMs, `active ${clock.activeMs} ms of ${wall} ms wall`);
    assert.ok((clock.editsPerFile['invoicekit/parse.py'] ?? 0) >= 4);
  }, 60_000);

  test('submit: graded in its container, the clock stops, annotations are revealed (the study allows it)', async () => {
    await vscode.workspace.save(parsePy());
    await vscode.commands.executeCommand('chainlens.submitStep', undefined, { confirm: false });
    await waitFor('the run to complete', () => api.services.run?.state.currentStep === null);
    const evaluation = await waitFor(
      'the grading of step 2',
      () => api.services.evaluation.latest(2, 'submitted'),
      300_000,
    );
    assert.equal(typeof evaluation.resolved, 'boolean');
    assert.equal(api.services.disclosure.current.blind, false, 'revealed after submission');
    assert.equal(api.study.clock(), undefined, 'no step is being timed');
  }, 400_000);
});
