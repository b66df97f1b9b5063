// Drift labelling in the editor: comment threads on changed ranges, the keyboard-fast walk over
// changed symbols, export, and agreement between two label files (Cohen's kappa).
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { openDialog } from '../util/pickerStart';
import { agreement } from '../../core/labels/agreement';
import { formatAgreement } from '../../core/labels/format';
import { parseLabels } from '../../core/labels/parse';
import type { DriftLabel, DriftLabelRecord } from '../../protocol/labels';
import type { ChangedSymbol, StepAnnotations } from '../../app/analysis/annotateStep';
import { guarded } from '../errors';
import type { ChainLensServices, StepAnnotationsService } from '../services';
import { LabelComment, LabelThreads } from './labelComments';
import { pickLabel } from './labelPick';
import { LabelStore, labelsFile } from './labelStore';

function stepRange(
  a: StepAnnotations,
  target: { file: string; startLine: number; endLine: number },
): { startLine: number; endLine: number } {
  const span = { startLine: target.startLine, endLine: Math.max(target.startLine, target.endLine) };
  const r = a.lines.toStep(target.file, span);
  if (!r)
    throw new Error(
      `${target.file} lines ${span.startLine}-${span.endLine} have changed since step ${a.order}: label what the step wrote, where it is unchanged.`,
    );
  return { startLine: r.startLine, endLine: r.endLine };
}

/** What the CodeLens passes: the changed symbol to label. */
function isSymbolArg(x: unknown): x is { file: string; symbol: string } {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as { file?: unknown }).file === 'string' &&
    typeof (x as { symbol?: unknown }).symbol === 'string'
  );
}

async function labellerName(services: ChainLensServices): Promise<string> {
  const name = await services.run?.workspace.git.userName().catch(() => '');
  return name?.trim() || userInfo().username || 'unknown';
}

export function registerLabels(
  context: vscode.ExtensionContext,
  services: ChainLensServices,
  annotations: StepAnnotationsService,
): void {
  const threads = new LabelThreads(annotations);
  let store: LabelStore | undefined;

  const storeFor = async (): Promise<LabelStore> => {
    const run = services.run;
    if (!run) throw new Error('No chain is open.');
    const path = labelsFile(run.workspace.store.root, run.state.runId);
    if (store?.path !== path) store = new LabelStore(path);
    return store;
  };
  const showThreads = async () => {
    try {
      threads.show(annotations.current ? (await storeFor()).load() : []);
    } catch (e) {
      services.output.warn(`labels: ${(e as Error).message}`);
    }
  };
  const requireAnnotations = (): StepAnnotations => {
    const a = annotations.current;
    if (!a) throw new Error('No step is annotated: open a chain and start or submit a step first.');
    return a;
  };
  /** A label record; `target` lines are the work tree's, the record keeps the step's own. */
  const record = async (
    a: StepAnnotations,
    target: { file: string; symbol: string | null; startLine: number; endLine: number },
    label: DriftLabel,
    rationale: string,
  ): Promise<DriftLabelRecord> => ({
    chain: a.chainId,
    step: a.order,
    instance: a.instance,
    file: target.file,
    symbol: target.symbol,
    range: stepRange(a, target),
    label,
    rationale,
    labeller: await labellerName(services),
    source: 'human',
    time: new Date().toISOString(),
  });
  /** The changed symbol a line range belongs to (the innermost), for the label's target. */
  const symbolAt = (a: StepAnnotations, file: string, line: number) =>
    a.symbols
      .filter((s) => s.file === file && s.startLine <= line && s.endLine >= line)
      .sort((x, y) => x.endLine - x.startLine - (y.endLine - y.startLine))[0];

  /** Shows one changed symbol and asks for its label (digit keys): saved, skipped, or the person stopped. */
  const labelSymbol = async (
    a: StepAnnotations,
    s: ChangedSymbol,
    title: string,
    allowSkip: boolean,
  ): Promise<'saved' | 'skipped' | 'stop'> => {
    const uri = annotations.fileUri(s.file);
    if (!uri) return 'stop';
    const editor = await vscode.window.showTextDocument(uri, { preview: false, preserveFocus: false });
    const range = new vscode.Range(s.startLine - 1, 0, s.endLine - 1, 0);
    editor.selection = new vscode.Selection(range.start, range.start);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    const name = s.symbol === '<module>' ? `top-level code of ${s.file}` : `${s.symbol} (${s.file})`;
    const label = await pickLabel({
      title: `${title}: ${name}${s.suggestion ? ` · suggested ${s.suggestion.label}` : ''}`,
      suggested: s.suggestion?.label,
      suggestionReason: s.suggestion?.reason,
      allowSkip,
    });
    if (label === undefined) return 'stop';
    if (label === 'skip') return 'skipped';
    const rationale =
      s.suggestion && s.suggestion.label === label
        ? `accepted suggestion: ${s.suggestion.reason}`
        : s.suggestion
          ? `overrides suggestion ${s.suggestion.label}`
          : '';
    (await storeFor()).add(
      await record(
        a,
        { file: s.file, symbol: s.symbol === '<module>' ? null : s.symbol, startLine: s.startLine, endLine: s.endLine },
        label,
        rationale,
      ),
    );
    await showThreads();
    threads.expand(s.file, s.startLine);
    return 'saved';
  };

  context.subscriptions.push(
    threads,
    annotations.onDidUpdate(() => void showThreads()),
    vscode.commands.registerCommand(
      'chainlens.labels.add',
      guarded(services.output, 'Add drift label', async (reply: vscode.CommentReply) => {
        const a = requireAnnotations();
        const file = annotations.relativePath(reply.thread.uri);
        const range = reply.thread.range;
        if (file === undefined || !range)
          throw new Error('Drift labels go on the changed lines of the annotated step.');
        const sym = symbolAt(a, file, range.start.line + 1);
        const label = await pickLabel({
          title: `Drift label for ${sym?.symbol ?? file}`,
          suggested: sym?.suggestion?.label,
          suggestionReason: sym?.suggestion?.reason,
        });
        if (!label || label === 'skip') return;
        const target =
          sym && sym.symbol !== '<module>'
            ? { file, symbol: sym.symbol, startLine: sym.startLine, endLine: sym.endLine }
            : { file, symbol: null, startLine: range.start.line + 1, endLine: range.end.line + 1 };
        (await storeFor()).add(await record(a, target, label, reply.text.trim()));
        reply.thread.dispose();
        await showThreads();
        threads.expand(file, target.startLine);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.labels.edit',
      guarded(services.output, 'Edit drift label', async (comment: LabelComment) => {
        const old = comment.record;
        const label = await pickLabel({
          title: `Change the drift label of ${old.symbol ?? old.file} (now ${old.label})`,
          suggested: old.label,
        });
        if (!label || label === 'skip') return;
        const rationale = await vscode.window.showInputBox({
          title: 'Rationale',
          value: old.rationale,
          ignoreFocusOut: true,
        });
        if (rationale === undefined) return;
        (await storeFor()).replace(old, {
          ...old,
          label,
          rationale,
          source: 'human',
          labeller: await labellerName(services),
          time: new Date().toISOString(),
        });
        await showThreads();
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.labels.remove',
      guarded(services.output, 'Remove drift label', async (comment: LabelComment) => {
        (await storeFor()).remove(comment.record);
        await showThreads();
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.labelChangedSymbols',
      guarded(services.output, 'Label Changed Symbols', async () => {
        const a = requireAnnotations();
        const todo = a.symbols;
        if (todo.length === 0) throw new Error(`Step ${a.order} changes no symbols: nothing to label.`);
        let saved = 0;
        for (const [i, s] of todo.entries()) {
          const outcome = await labelSymbol(a, s, `Label ${i + 1}/${todo.length}`, true);
          if (outcome === 'stop') break;
          if (outcome === 'saved') saved++;
        }
        void vscode.window.showInformationMessage(
          `ChainLens: ${saved} drift label(s) saved for step ${a.order} (${basename((await storeFor()).path)}).`,
        );
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.labelSymbol',
      guarded(services.output, 'Label Drift of Symbol', async (arg?: unknown) => {
        const a = requireAnnotations();
        const editor = vscode.window.activeTextEditor;
        const target = isSymbolArg(arg)
          ? a.symbols.find((s) => s.file === arg.file && s.symbol === arg.symbol)
          : editor &&
            symbolAt(a, annotations.relativePath(editor.document.uri) ?? '', editor.selection.active.line + 1);
        if (!target)
          throw new Error(
            `Step ${a.order} does not change ${isSymbolArg(arg) ? arg.symbol : 'the code at the cursor'}: drift labels go on what the step changes.`,
          );
        await labelSymbol(a, target, 'Label', false);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.exportDriftLabels',
      guarded(services.output, 'Export Drift Labels', async () => {
        const s = await storeFor();
        if (!existsSync(s.path) || s.load().length === 0)
          throw new Error('No drift labels yet for this run: label changed code first.');
        const target = await vscode.window.showSaveDialog({
          title: 'Export drift labels (JSONL)',
          defaultUri: vscode.Uri.joinPath(vscode.Uri.file(services.run!.dir), '..', basename(s.path)),
          filters: { 'Drift labels': ['jsonl'] },
        });
        if (!target) return;
        copyFileSync(s.path, target.fsPath);
        void vscode.window.showInformationMessage(`ChainLens: drift labels exported to ${target.fsPath}.`);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.driftLabelAgreement',
      guarded(services.output, 'Drift Label Agreement', async () => {
        const pickOne = async (which: string) =>
          (
            await openDialog({
              title: `Drift labels of the ${which} labeller`,
              canSelectMany: false,
              filters: { 'Drift labels': ['jsonl'] },
            })
          )?.[0];
        const a = await pickOne('first');
        if (!a) return;
        const b = await pickOne('second');
        if (!b) return;
        const ra = parseLabels(readFileSync(a.fsPath, 'utf8'), a.fsPath);
        const rb = parseLabels(readFileSync(b.fsPath, 'utf8'), b.fsPath);
        const text = formatAgreement(agreement(ra, rb), 'A', 'B');
        const md = [
          `# Drift label agreement`,
          '',
          `- A: \`${a.fsPath}\` (${ra.length} records)`,
          `- B: \`${b.fsPath}\` (${rb.length} records)`,
          '',
          '```text',
          text,
          '```',
          '',
        ].join('\n');
        const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: md });
        await vscode.window.showTextDocument(doc, { preview: true });
        await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
      }),
    ),
  );
}
