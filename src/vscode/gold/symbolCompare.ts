// Two ways to put a symbol next to gold, for the annotated step (the one whose marks the editor
// shows), from a CodeLens or from the cursor:
//   Compare Symbol with Gold       the diff editor, gold on the left, on the right the work tree
//                                  while the step is current (editable) or the step's submitted
//                                  version, opened at the symbol;
//   Open Gold, Recorded and Working side by side: three editors, each at the symbol in its version.
import * as vscode from 'vscode';
import type { SymbolLookup } from '../../core/analysis/symbols';
import { MODULE_SYMBOL } from '../../core/analysis/symbols';
import { guarded } from '../errors';
import { isSymbolTarget } from '../commandArgs';
import type { ChainLensServices, StepAnnotationsService } from '../services';
import { recordedPatchOf, stepOf } from '../../app/fileVersions/fileVersion';
import { documentUri } from '../documents/chainLensDocuments';
import type { VersionKind } from '../../app/fileVersions/fileVersion';

/** What a CodeLens passes; without it the commands use the active editor and its cursor. */
interface Resolved {
  readonly file: string;
  readonly symbol: string | undefined;
  readonly order: number;
  /** 0-based line to show when a version lacks the symbol. */
  readonly line: number;
}

/** The symbol's lines in one version of the file, as a selection at its first line. */
async function symbolSelection(
  index: SymbolLookup,
  file: string,
  text: string,
  symbol: string | undefined,
  fallbackLine: number,
): Promise<vscode.Range> {
  const s = symbol ? (await index.symbolsOf(file, text))?.find(symbol) : undefined;
  const line = s ? s.startLine - 1 : fallbackLine;
  return new vscode.Range(line, 0, line, 0);
}

/** The symbol's first line at the top of each editor, so the columns line up on it. */
function atTop(editor: vscode.TextEditor, at: vscode.Range): void {
  editor.revealRange(at, vscode.TextEditorRevealType.AtTop);
}

export function registerSymbolCompare(
  context: vscode.ExtensionContext,
  services: ChainLensServices,
  annotations: StepAnnotationsService,
): void {
  const versionUri = (t: { runId: string; order: number; kind: VersionKind; path: string }) =>
    documentUri({ kind: 'version', runId: t.runId, step: t.order, version: t.kind, path: t.path, titled: true });

  const resolve = async (arg: unknown): Promise<Resolved> => {
    const run = services.run;
    if (!run) throw new Error('No chain is open.');
    const order = (isSymbolTarget(arg) ? arg.order : undefined) ?? annotations.current?.order ?? run.state.currentStep;
    if (order === null || order === undefined)
      throw new Error(
        'Every step of this run has ended and none is annotated: run "ChainLens: Annotate Step…" to choose one.',
      );
    if (isSymbolTarget(arg))
      return { file: arg.file, symbol: arg.symbol === MODULE_SYMBOL ? undefined : arg.symbol, order, line: 0 };
    const editor = vscode.window.activeTextEditor;
    const file = editor ? annotations.relativePath(editor.document.uri) : undefined;
    if (!editor || file === undefined)
      throw new Error(
        "Put the cursor in a file of the chain's repository (or use the CodeLens above a changed symbol).",
      );
    const line = editor.selection.active.line;
    const outline = await annotations.symbols.symbolsOf(file, editor.document.getText());
    const symbol = outline?.symbolAt(line + 1)?.qualifiedName;
    return { file, symbol, order, line };
  };

  /** The target, its run and step; a step that has not started has nothing to compare. */
  const resolveStarted = async (arg: unknown) => {
    const t = await resolve(arg);
    const run = services.run!;
    const { step } = stepOf(run, t.order);
    if (!step.start) throw new Error(`Step ${t.order} has not started yet: there is nothing to compare.`);
    return { t, run, step };
  };

  /** A virtual version, opened with the language of the working file (its name ends in "(gold)", not ".py"). */
  const openVersion = async (uri: vscode.Uri, languageId: string | undefined): Promise<vscode.TextDocument> => {
    const doc = await vscode.workspace.openTextDocument(uri);
    return languageId && doc.languageId !== languageId
      ? vscode.languages.setTextDocumentLanguage(doc, languageId)
      : doc;
  };

  const workingDocument = async (file: string): Promise<vscode.TextDocument | undefined> => {
    const uri = annotations.fileUri(file);
    try {
      return uri ? await vscode.workspace.openTextDocument(uri) : undefined;
    } catch {
      return undefined; // deleted in the work tree
    }
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(
      'chainlens.compareSymbolWithGold',
      guarded(services.output, 'Compare Symbol with Gold', async (arg?: unknown) => {
        services.disclosure.require('goldDocuments', 'Compare Symbol with Gold');
        const { t, run, step } = await resolveStarted(arg);
        services.disclosure.require('goldDocuments', 'Compare Symbol with Gold', t.order);
        const live = step.end === null;
        const working = await workingDocument(t.file);
        if (live && !working)
          throw new Error(
            `${t.file} is not in the work tree (step ${t.order} deletes it): open "${t.file} (gold)" with Open Gold, Recorded and Working instead.`,
          );
        const language = working?.languageId;
        const gold = await openVersion(
          versionUri({ runId: run.state.runId, order: t.order, kind: 'gold', path: t.file }),
          language,
        );
        const right = live
          ? working!
          : await openVersion(
              versionUri({ runId: run.state.runId, order: t.order, kind: 'submitted', path: t.file }),
              language,
            );
        const selection = await symbolSelection(annotations.symbols, t.file, right.getText(), t.symbol, t.line);
        const name = t.symbol ?? t.file;
        await vscode.commands.executeCommand(
          'vscode.diff',
          gold.uri,
          right.uri,
          `${name}: gold ↔ ${live ? 'working' : `step ${t.order}`}`,
          { preview: true, selection } satisfies vscode.TextDocumentShowOptions,
        );
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.openGoldRecordedWorking',
      guarded(services.output, 'Open Gold, Recorded and Working', async (arg?: unknown) => {
        services.disclosure.require('goldDocuments', 'Open Gold, Recorded and Working');
        const { t, run, step } = await resolveStarted(arg);
        services.disclosure.require('goldDocuments', 'Open Gold, Recorded and Working', t.order);
        const working = await workingDocument(t.file);
        const hasRecorded = recordedPatchOf(run, t.order) !== undefined;
        const versions = hasRecorded ? (['gold', 'recorded'] as const) : (['gold'] as const);
        const columns = [vscode.ViewColumn.One, vscode.ViewColumn.Two, vscode.ViewColumn.Three];
        for (const [i, kind] of versions.entries()) {
          const doc = await openVersion(
            versionUri({ runId: run.state.runId, order: t.order, kind, path: t.file }),
            working?.languageId,
          );
          const selection = await symbolSelection(annotations.symbols, t.file, doc.getText(), t.symbol, t.line);
          atTop(
            await vscode.window.showTextDocument(doc, {
              viewColumn: columns[i],
              preview: false,
              preserveFocus: true,
              selection,
            }),
            selection,
          );
        }
        if (working) {
          const selection = await symbolSelection(annotations.symbols, t.file, working.getText(), t.symbol, t.line);
          atTop(
            await vscode.window.showTextDocument(working, {
              viewColumn: columns[versions.length],
              preview: false,
              selection,
            }),
            selection,
          );
        }
        if (!hasRecorded) {
          void vscode.window.showInformationMessage(
            `ChainLens: this run holds no recorded (agent) patch for ${step.instanceId}, so only gold and working are shown. Open the chain with an agent's predictions or trajectory to add it.`,
          );
        }
      }),
    ),
  );
}
