// CodeLenses above the symbols the annotated step and its gold patch change: "Compare with gold",
// "Label drift" on what the step changes (with ChainLens's suggestion), and "Gold | recorded |
// working" when the run holds an agent's recorded patch. Positions come from an outline of the
// document as it is now, found by qualified name, so they stay on the right line while a person
// types between analyses.
import * as vscode from 'vscode';
import { MODULE_SYMBOL } from '../../core/analysis/symbols';
import type { SymbolTarget } from '../commandArgs';
import { recordedPatchOf } from '../../app/fileVersions/fileVersion';
import type { ChainLensServices } from '../services';
import type { StepAnnotations } from '../../app/analysis/annotateStep';
import type { AnnotationController } from './annotationController';

/** How a symbol relates to gold, for the lens title. */
type Relation = 'both' | 'stepOnly' | 'goldOnly';

/** The symbols of `file` the step or gold changes, with how they relate. */
export function lensSymbols(a: StepAnnotations, file: string): Map<string, Relation> {
  const out = new Map<string, Relation>();
  const overshoot = new Set(a.analysis.symbols.overshoot.filter((e) => e.file === file).map((e) => e.symbol));
  for (const s of a.symbols)
    if (s.file === file && s.symbol !== MODULE_SYMBOL) out.set(s.symbol, overshoot.has(s.symbol) ? 'stepOnly' : 'both');
  for (const e of a.analysis.symbols.undershoot)
    if (e.file === file && e.symbol && e.symbol !== MODULE_SYMBOL) out.set(e.symbol, 'goldOnly');
  return out;
}

const TITLES: Record<Relation, string> = {
  both: '$(git-compare) Compare with gold',
  stepOnly: '$(git-compare) Compare with gold · gold leaves this alone',
  goldOnly: '$(git-compare) Compare with gold · gold changes this, the step does not',
};

export class SymbolLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Whether the annotated step's instance has a recorded patch (a file read, so once per analysis). */
  private recorded = new WeakMap<StepAnnotations, boolean>();

  constructor(
    private readonly services: ChainLensServices,
    private readonly annotations: AnnotationController,
  ) {
    this.subscriptions = [
      annotations.onDidUpdate(() => this.changed.fire()),
      services.disclosure.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration('chainlens.annotations') && this.changed.fire(),
      ),
    ];
  }

  /** Fire after the annotations were toggled on or off. */
  refresh(): void {
    this.changed.fire();
  }

  private hasRecorded(a: StepAnnotations): boolean {
    let known = this.recorded.get(a);
    if (known === undefined) {
      const run = this.services.run;
      known = run?.state.runId === a.runId && recordedPatchOf(run, a.order) !== undefined;
      this.recorded.set(a, known);
    }
    return known;
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const a = this.annotations.current;
    this.services.output.trace(`lenses: asked for ${document.uri.toString()}, annotated step ${a?.order ?? 'none'}`);
    if (
      !a ||
      !this.services.disclosure.current.annotations ||
      !this.annotations.shown ||
      !vscode.workspace.getConfiguration('chainlens.annotations').get<boolean>('codeLens', true)
    )
      return [];
    const file = this.annotations.relativePath(document.uri);
    const wanted = file === undefined ? undefined : lensSymbols(a, file);
    if (file === undefined || !wanted?.size) return [];
    const outline = await this.annotations.symbols.symbolsOf(file, document.getText());
    if (!outline || token.isCancellationRequested) return [];
    const lenses: vscode.CodeLens[] = [];
    const sideBySide = this.hasRecorded(a);
    for (const [symbol, relation] of wanted) {
      const s = outline.find(symbol);
      if (!s) continue;
      const range = new vscode.Range(s.startLine - 1, 0, s.startLine - 1, 0);
      const target: SymbolTarget = { file, symbol, order: a.order };
      lenses.push(
        new vscode.CodeLens(range, {
          title: TITLES[relation],
          command: 'chainlens.compareSymbolWithGold',
          arguments: [target],
          tooltip: `Step ${a.order}: ${symbol} next to the gold patch's version`,
        }),
      );
      const changed =
        relation !== 'goldOnly' ? a.symbols.find((x) => x.file === file && x.symbol === symbol) : undefined;
      if (changed) {
        const title = `$(tag) Label drift${changed.suggestion ? ` · suggested ${changed.suggestion.label}` : ''}`;
        lenses.push(
          new vscode.CodeLens(range, {
            title,
            command: 'chainlens.labelSymbol',
            arguments: [target],
            tooltip: changed.suggestion
              ? `${changed.suggestion.reason} (a suggestion, not a verdict)`
              : `Label the behavioural drift of ${symbol}`,
          }),
        );
      }
      if (sideBySide)
        lenses.push(
          new vscode.CodeLens(range, {
            title: '$(split-horizontal) Gold | recorded | working',
            command: 'chainlens.openGoldRecordedWorking',
            arguments: [target],
            tooltip: `${symbol} as gold, the agent's recorded patch and the work tree leave it, side by side`,
          }),
        );
    }
    this.services.output.trace(`lenses: ${file}, step ${a.order}: ${lenses.length} for ${wanted.size} symbol(s)`);
    return lenses;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}
