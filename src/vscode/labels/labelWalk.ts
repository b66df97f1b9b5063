// Keyboard-fast labelling: Label Changed Symbols walks every symbol the annotated step changes
// (digit keys pick, Skip goes on, Escape stops); Label Drift of Symbol labels one, from its
// CodeLens or the cursor. A symbol a later step of the chain changed again is shown, and
// labelled, in the step's own version (what its end commit holds): a researcher labels every
// step of a finished run.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ChangedSymbol, StepAnnotations } from '../../app/analysis/annotateStep';
import { guarded } from '../errors';
import { pickLabel } from './labelPick';
import type { LabelSession } from './labelSession';
import { documentUri } from '../documents/chainLensDocuments';
import { isSymbolArg, placeOf, stepSymbolRecord, symbolAt } from './labelTarget';

/** The rationale a walk writes: whether the person took ChainLens's suggestion. */
function walkRationale(s: ChangedSymbol, label: string): string {
  if (!s.suggestion) return '';
  return s.suggestion.label === label
    ? `accepted suggestion: ${s.suggestion.reason}`
    : `overrides suggestion ${s.suggestion.label}`;
}

/** Shows one changed symbol and asks for its label: saved, skipped, or the person stopped. */
async function labelOne(
  session: LabelSession,
  a: StepAnnotations,
  s: ChangedSymbol,
  title: string,
  allowSkip: boolean,
): Promise<'saved' | 'skipped' | 'stop'> {
  const place = placeOf(a, s);
  const uri =
    place.in === 'work tree'
      ? session.annotations.fileUri(s.file)
      : documentUri({
          kind: 'version',
          runId: a.runId,
          step: a.order,
          version: 'submitted',
          path: s.file,
          titled: true,
        });
  if (!uri) return 'stop';
  const editor = await vscode.window.showTextDocument(uri, { preview: false, preserveFocus: false });
  const range = new vscode.Range(place.lines.startLine - 1, 0, place.lines.endLine - 1, 0);
  editor.selection = new vscode.Selection(range.start, range.start);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  const name = `${s.symbol === '<module>' ? `top-level code of ${s.file}` : `${s.symbol} (${s.file})`}${place.in === 'step version' ? `, as step ${a.order} left it (changed since)` : ''}`;
  const label = await pickLabel({
    title: `${title}: ${name}${s.suggestion ? ` · suggested ${s.suggestion.label}` : ''}`,
    suggested: s.suggestion?.label,
    suggestionReason: s.suggestion?.reason,
    allowSkip,
  });
  if (label === undefined) return 'stop';
  if (label === 'skip') return 'skipped';
  const record = stepSymbolRecord(a, s, label, walkRationale(s, label), await session.labeller());
  await session.save(record, place.lines.startLine);
  return 'saved';
}

export function registerLabelWalk(session: LabelSession): vscode.Disposable[] {
  const { services, annotations } = session;
  return [
    vscode.commands.registerCommand(
      'chainlens.labelChangedSymbols',
      guarded(services.output, 'Label Changed Symbols', async () => {
        const a = session.requireAnnotations();
        const todo = a.stepSymbols;
        if (todo.length === 0) throw new Error(`Step ${a.order} changes no symbols: nothing to label.`);
        let saved = 0;
        for (const [i, s] of todo.entries()) {
          const outcome = await labelOne(session, a, s, `Label ${i + 1}/${todo.length}`, true);
          if (outcome === 'stop') break;
          if (outcome === 'saved') saved++;
        }
        void vscode.window.showInformationMessage(
          `ChainLens: ${saved} drift label(s) saved for step ${a.order} (${basename(session.store().path)}).`,
        );
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.labelSymbol',
      guarded(services.output, 'Label Drift of Symbol', async (arg?: unknown) => {
        const a = session.requireAnnotations();
        const editor = vscode.window.activeTextEditor;
        // the CodeLens and the cursor are in the work tree: its symbols, found again in the step's lines
        const here = isSymbolArg(arg)
          ? a.symbols.find((s) => s.file === arg.file && s.symbol === arg.symbol)
          : editor &&
            symbolAt(a, annotations.relativePath(editor.document.uri) ?? '', editor.selection.active.line + 1);
        const target = here && a.stepSymbols.find((s) => s.file === here.file && s.symbol === here.symbol);
        if (!target)
          throw new Error(
            `Step ${a.order} does not change ${isSymbolArg(arg) ? arg.symbol : 'the code at the cursor'}: drift labels go on what the step changes.`,
          );
        await labelOne(session, a, target, 'Label', false);
      }),
    ),
  ];
}
