// CodeLenses above the symbols the annotated step and its gold patch change: "Compare with gold",
// "Label drift" on what the step changes (with ChainLens's suggestion), and "Gold | recorded |
// working" when the run holds an agent's recorded patch. Positions come from an outline of the
// document, found by qualified name, moved with the edits since it was parsed (lensLines.ts), so
// they stay on the right line while a person types between analyses.
import * as vscode from 'vscode';
import { MODULE_SYMBOL } from '../../core/analysis/symbols';
import type { SymbolTarget } from '../commandArgs';
import { recordedPatchOf } from '../../app/fileVersions/fileVersion';
import type { ChainLensServices } from '../services';
import type { StepAnnotations } from '../../app/analysis/annotateStep';
import type { AnnotationController } from './annotationController';
import { toLineEdit } from '../../core/analysis/rangeMapping';
import { LensLines } from './lensLines';

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

/**
 * A lens whose command is made when VS Code shows it: a 10,000-line file can carry a thousand
 * lenses, asked for again after every edit, and only the few in view are ever shown.
 */
class SymbolLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly resolve: () => vscode.Command,
  ) {
    super(range);
  }
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
  /** Where the lenses go between parses. */
  private readonly lines = new LensLines();

  constructor(
    private readonly services: ChainLensServices,
    private readonly annotations: AnnotationController,
  ) {
    this.subscriptions = [
      annotations.onDidUpdate(() => this.changed.fire()),
      vscode.workspace.onDidChangeTextDocument((e) =>
        this.lines.edited(
          e.document,
          e.document.version,
          e.contentChanges.map((c) => toLineEdit(c.range.start.line, c.range.end.line, c.text)),
        ),
      ),
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
    const starts = await this.symbolLines(document, a, file, wanted);
    if (!starts || token.isCancellationRequested) return [];
    const lenses: vscode.CodeLens[] = [];
    const sideBySide = this.hasRecorded(a);
    const changedHere = new Map(a.symbols.filter((x) => x.file === file).map((x) => [x.symbol, x] as const));
    for (const [symbol, relation] of wanted) {
      const line = starts.get(symbol);
      if (line === undefined) continue;
      const range = new vscode.Range(line - 1, 0, line - 1, 0);
      const target: SymbolTarget = { file, symbol, order: a.order };
      lenses.push(
        new SymbolLens(range, () => ({
          title: TITLES[relation],
          command: 'chainlens.compareSymbolWithGold',
          arguments: [target],
          tooltip: `Step ${a.order}: ${symbol} next to the gold patch's version`,
        })),
      );
      const changed = relation !== 'goldOnly' ? changedHere.get(symbol) : undefined;
      if (changed)
        lenses.push(
          new SymbolLens(range, () => ({
            title: `$(tag) Label drift${changed.suggestion ? ` · suggested ${changed.suggestion.label}` : ''}`,
            command: 'chainlens.labelSymbol',
            arguments: [target],
            tooltip: changed.suggestion
              ? `${changed.suggestion.reason} (a suggestion, not a verdict)`
              : `Label the behavioural drift of ${symbol}`,
          })),
        );
      if (sideBySide)
        lenses.push(
          new SymbolLens(range, () => ({
            title: '$(split-horizontal) Gold | recorded | working',
            command: 'chainlens.openGoldRecordedWorking',
            arguments: [target],
            tooltip: `${symbol} as gold, the agent's recorded patch and the work tree leave it, side by side`,
          })),
        );
    }
    this.services.output.trace(`lenses: ${file}, step ${a.order}: ${lenses.length} for ${wanted.size} symbol(s)`);
    return lenses;
  }

  /** The first line of each wanted symbol in the document as it is now: the last parse's lines moved with the edits since, or a new parse. */
  private async symbolLines(
    document: vscode.TextDocument,
    a: StepAnnotations,
    file: string,
    wanted: ReadonlyMap<string, Relation>,
  ): Promise<ReadonlyMap<string, number> | undefined> {
    const version = document.version;
    const known = this.lines.get(document, a, version);
    if (known) return known;
    const outline = await this.annotations.symbols.symbolsOf(file, document.getText());
    if (!outline) return undefined;
    const found = new Map<string, number>();
    for (const symbol of wanted.keys()) {
      const s = outline.find(symbol);
      if (s) found.set(symbol, s.startLine);
    }
    // Typed while the parse ran: its lines are of an older text, good for this answer only.
    if (document.version === version) this.lines.set(document, a, version, found);
    return found;
  }

  /** VS Code asks only for the lenses in view: their titles and commands are made then. */
  resolveCodeLens(lens: vscode.CodeLens): vscode.CodeLens {
    if (lens instanceof SymbolLens) lens.command = lens.resolve();
    return lens;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}
