// Runs inside the extension host of a real VS Code (code-server), driven by bench/decorations.ts:
// times ChainLens drawing its annotations on a 10,000-line file against VS Code's own API doing
// the same visible work (setDecorations with the same ranges, a DiagnosticCollection with the same
// entries), interleaved, and writes the numbers to <work tree>/.git/chainlens-bench-decorations.json.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ChainLensApi } from '../src/extension';
import { suite, test } from '../test/e2e/harness/exthost/suite';

const ROUNDS = 15;
/** Bursts of edits per side, and the pause after each (past the annotations' refresh: 600 ms, then its analysis). */
const EDIT_ROUNDS = 6;
const SETTLE_MS = 5_000;
const FILE = 'pkg/big.py';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

suite('decorations on a 10,000-line file', () => {
  test('ChainLens vs raw setDecorations + diagnostics', async () => {
    const api = (await vscode.extensions.getExtension<ChainLensApi>('chainlens.chainlens')!.activate()) as ChainLensApi;
    await api.ready;
    const root = vscode.workspace.workspaceFolders![0].uri;
    const editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(root, ...FILE.split('/')));
    assert.ok(editor.document.lineCount >= 10_000, `${FILE} has ${editor.document.lineCount} lines`);

    // The whole step, as a person triggers it: analysis + drawing + the Problems mirror.
    const annotate: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await vscode.commands.executeCommand('chainlens.annotateStep', { kind: 'step', order: 1 });
      annotate.push(performance.now() - t0);
    }
    const a = api.annotations.current;
    assert.ok(a, 'step 1 is annotated');
    const decorations = a.decorations.get(FILE) ?? [];
    assert.ok(decorations.length > 500, `only ${decorations.length} decorations`);

    // Raw: the same ranges per kind and the same diagnostics, set through the API directly.
    const kinds = ['overshoot', 'undershoot', 'drift'] as const;
    const rawTypes = kinds.map(() =>
      vscode.window.createTextEditorDecorationType({ isWholeLine: true, backgroundColor: 'rgba(128,128,128,0.1)' }),
    );
    const rawRanges = kinds.map((k) =>
      decorations
        .filter((d) => d.kind === k)
        .map((d) => new vscode.Range(d.startLine - 1, 0, d.endLine - 1, Number.MAX_SAFE_INTEGER)),
    );
    const rawDiagnostics = vscode.languages.createDiagnosticCollection('bench-raw');
    const drawn = vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.source === 'ChainLens');
    // The same entries, related information (the gold location) included: what the Problems panel shows.
    const entries = drawn.map((d) =>
      Object.assign(new vscode.Diagnostic(d.range, d.message, d.severity), {
        source: d.source,
        code: d.code,
        relatedInformation: d.relatedInformation,
      }),
    );
    const clear = () => {
      rawTypes.forEach((t) => editor.setDecorations(t, []));
      rawDiagnostics.clear();
    };

    // A draw whose marks are new to ChainLens (as after an analysis or an edit): the controller's
    // drawn lists are replaced by copies, so no range or Problems entry built before can be reused
    // and everything is sent again. The plain publish() after it (nothing changed) sends nothing.
    const controller = api.annotations as unknown as { drawn: Map<string, readonly unknown[]> };
    const renew = () => (controller.drawn = new Map([...controller.drawn].map(([f, l]) => [f, [...l]])));
    const chainlens: number[] = [];
    const unchanged: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      renew();
      let t0 = performance.now();
      api.annotations.publish();
      chainlens.push(performance.now() - t0);
      t0 = performance.now();
      api.annotations.publish();
      unchanged.push(performance.now() - t0);
      t0 = performance.now();
      rawTypes.forEach((t, k) => editor.setDecorations(t, rawRanges[k]));
      rawDiagnostics.set(editor.document.uri, entries);
      raw.push(performance.now() - t0);
      clear();
      // Let the renderer take the updates before the next round.
      await new Promise((r) => setTimeout(r, 50));
    }

    // Typing at the top shifts every mark below (the editor moves decorations and markers; ChainLens
    // maps its own copy of the lines for hovers and labels). Raw: the same edits on an untitled copy
    // of the file carrying the same decorations and diagnostics, which ChainLens leaves alone. Both
    // editors are visible side by side. Each takes bursts of 10 edits in turn (A B, then B A): what
    // an edit sets off in the background (lenses asked for again, ChainLens's refresh) lands in its
    // own burst, and the pause after a burst lets it end before the other side types.
    const copy = await vscode.window.showTextDocument(
      await vscode.workspace.openTextDocument({ content: editor.document.getText(), language: 'python' }),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    );
    rawTypes.forEach((t, k) => copy.setDecorations(t, rawRanges[k]));
    rawDiagnostics.set(copy.document.uri, entries);
    const annotated = vscode.window.visibleTextEditors.find((e) => e.document === editor.document)!;
    const burst = async (target: vscode.TextEditor, round: number): Promise<number> => {
      const t0 = performance.now();
      for (let i = 0; i < 10; i++)
        await target.edit((e) => e.insert(new vscode.Position(0, 0), `# edit ${round}.${i}\n`));
      const perEdit = (performance.now() - t0) / 10;
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      return perEdit;
    };
    // A third side tells VS Code's own cost of a file on disk in a git repository (quick diff and
    // the like, which an untitled copy does not have) from ChainLens's: the annotated file itself,
    // ChainLens's marks hidden (its toggle) and the same marks set raw on it, so that only
    // ChainLens's work differs from the first side.
    const hiddenBurst = async (round: number): Promise<number> => {
      await api.annotations.toggle();
      rawTypes.forEach((t, k) => annotated.setDecorations(t, rawRanges[k]));
      rawDiagnostics.set(annotated.document.uri, entries);
      try {
        return await burst(annotated, round);
      } finally {
        rawTypes.forEach((t) => annotated.setDecorations(t, []));
        rawDiagnostics.delete(annotated.document.uri);
        await api.annotations.toggle();
        await new Promise((r) => setTimeout(r, SETTLE_MS));
      }
    };
    const edits: number[] = [];
    const rawEdits: number[] = [];
    const hiddenEdits: number[] = [];
    for (let round = 0; round < EDIT_ROUNDS; round++) {
      if (round % 2 === 0) {
        edits.push(await burst(annotated, round));
        rawEdits.push(await burst(copy, round));
        hiddenEdits.push(await hiddenBurst(round));
      } else {
        hiddenEdits.push(await hiddenBurst(round));
        rawEdits.push(await burst(copy, round));
        edits.push(await burst(annotated, round));
      }
    }
    assert.equal(api.annotations.shown, true, 'the annotations are shown again');
    const editMs = median(edits);
    const rawEditMs = median(rawEdits);
    const hiddenEditMs = median(hiddenEdits);
    rawTypes.forEach((t) => t.dispose());
    rawDiagnostics.dispose();
    await vscode.window.showTextDocument(copy.document, copy.viewColumn);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('workbench.action.files.revert');

    const result = {
      lines: editor.document.lineCount,
      decorations: decorations.length,
      byKind: Object.fromEntries(kinds.map((k, i) => [k, rawRanges[i].length])),
      diagnostics: entries.length,
      annotateMs: median(annotate),
      chainlensDrawMs: median(chainlens),
      chainlensUnchangedMs: median(unchanged),
      rawDrawMs: median(raw),
      editMs,
      rawEditMs,
      hiddenEditMs,
      rounds: ROUNDS,
      editRounds: EDIT_ROUNDS,
    };
    writeFileSync(join(root.fsPath, '.git', 'chainlens-bench-decorations.json'), JSON.stringify(result, null, 2));
  }, 300_000);
});
