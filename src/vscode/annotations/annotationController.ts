// Keeps the annotations of the annotated step up to date: analyses on run changes, saves and
// (debounced) edits, cancelling stale work; shifts ranges while a person types; paints the
// visible editors and mirrors everything into the 'chainlens' DiagnosticCollection.
import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { SymbolLookup } from '../../core/analysis/symbols';
import type { Decoration, DecorationKind } from '../../protocol/analysis';
import { AnalysisThread } from '../../app/analysis/analysisThread';
import { errorMessage } from '../errors';
import type { ChainLensServices, StepAnnotationsService } from '../services';
import { annotateStep, type StepAnnotations } from '../../app/analysis/annotateStep';
import { diagnosticsFor } from './diagnostics';
import { annotationLevel, type AnnotationLevel } from './level';
import { AnnotationPainter } from './painter';
import { mapSpans, toLineEdit } from '../../core/analysis/rangeMapping';
import { annotatedStep } from './stepChoice';
import { goldShown } from '../../core/study/disclosure';
import { DerivedMemo, LastSent } from './drawMemo';
import { KINDS } from './painter';

const DEBOUNCE_MS = 600;
const SHOWN_KEY = 'chainlens.annotations.shown';

export class AnnotationController implements StepAnnotationsService, vscode.Disposable {
  private annotations: StepAnnotations | undefined;
  /** Decorations as currently drawn (shifted by edits since the last analysis). */
  private drawn = new Map<string, readonly Decoration[]>();
  private readonly painter = new AnnotationPainter();
  readonly diagnostics = vscode.languages.createDiagnosticCollection('chainlens');
  private readonly updated = new vscode.EventEmitter<StepAnnotations | undefined>();
  /** Fires after each analysis (labels re-attach their threads). */
  readonly onDidUpdate = this.updated.event;
  /**
   * The analysis worker: every parse of the window (annotations, lenses, symbol compare) runs
   * there, off the extension host's thread; on that thread only if no worker can start.
   */
  private readonly analysis: AnalysisThread;
  private inFlight: vscode.CancellationTokenSource | undefined;
  private timer: NodeJS.Timeout | undefined;
  private chosenStep: number | undefined;
  /** Run and current step at the last refresh: a change of either forgets the chosen step. */
  private runPosition: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Levels read from the settings once per draw (not once per mark); undefined outside a draw. */
  private drawLevels: ReadonlyMap<DecorationKind, AnnotationLevel> | undefined;
  /** A file's drawn list filtered by the levels: the same array while neither changes, so the painter's memo holds. */
  private readonly filtered = new DerivedMemo<readonly Decoration[], readonly Decoration[]>();
  /** Problems entries per file's filtered list (built once), and what each file's entry was last set to. */
  private readonly problems = new DerivedMemo<readonly Decoration[], vscode.Diagnostic[]>();
  private readonly problemsSent = new LastSent<StepAnnotations, readonly vscode.Diagnostic[]>();
  private problemsOf: StepAnnotations | undefined;

  constructor(private readonly services: ChainLensServices) {
    this.analysis = new AnalysisThread({
      workerScript: services.context.asAbsolutePath('dist/analysis-worker.js'),
      onFallback: (why) => services.output.warn(`annotations: analysing on the extension host's thread: ${why}`),
    });
    this.disposables.push(
      this.analysis,
      this.painter,
      this.diagnostics,
      this.updated,
      services.onDidChangeRun(() => this.schedule(0)),
      // Withheld: cleared at once (not on the next analysis), so nothing stays drawn for a moment.
      services.disclosure.onDidChange((d) => (d.annotations ? this.schedule(0) : this.withhold())),
      vscode.workspace.onDidSaveTextDocument((d) => this.inRun(d.uri) && this.schedule(0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.edited(e)),
      vscode.window.onDidChangeVisibleTextEditors(() => this.paint()),
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration('chainlens.annotations') && this.publish(),
      ),
    );
  }

  /** Symbols of any version of a file, parsed in the analysis worker. */
  get symbols(): SymbolLookup {
    return this.analysis;
  }

  get current(): StepAnnotations | undefined {
    return this.annotations;
  }

  get shown(): boolean {
    return this.services.context.workspaceState.get<boolean>(SHOWN_KEY, true);
  }

  async toggle(): Promise<boolean> {
    await this.services.context.workspaceState.update(SHOWN_KEY, !this.shown);
    this.publish();
    return this.shown;
  }

  /** Annotate this step from now on (undefined: back to the automatic choice). */
  showStep(order: number | undefined): Promise<void> {
    this.chosenStep = order;
    return this.refresh();
  }

  /** Repo-relative path of a file of the run's work tree, else undefined. */
  relativePath(uri: vscode.Uri): string | undefined {
    const run = this.services.run;
    if (!run || uri.scheme !== 'file') return undefined;
    const rel = relative(run.dir, uri.fsPath);
    return rel.startsWith('..') || rel === '' ? undefined : rel.split(sep).join('/');
  }

  fileUri(file: string): vscode.Uri | undefined {
    const run = this.services.run;
    return run ? vscode.Uri.joinPath(vscode.Uri.file(run.dir), ...file.split('/')) : undefined;
  }

  private inRun(uri: vscode.Uri): boolean {
    return this.relativePath(uri) !== undefined;
  }

  /** How loudly a kind is drawn: the `chainlens.annotations.<kind>` setting (true/false of older settings too). */
  private level(kind: DecorationKind): AnnotationLevel {
    const during = this.drawLevels?.get(kind);
    if (during) return during;
    if (!this.shown) return 'off';
    return annotationLevel(vscode.workspace.getConfiguration('chainlens.annotations').get<unknown>(kind));
  }

  private enabled(kind: DecorationKind): boolean {
    return this.level(kind) !== 'off';
  }

  private visible(file: string): readonly Decoration[] {
    const list = this.drawn.get(file);
    if (!list) return [];
    return this.filtered.get(list, this.levelsKey(), () => list.filter((d) => this.enabled(d.kind)));
  }

  private levelsKey(): string {
    return KINDS.map((k) => this.level(k)).join(',');
  }

  /** Runs `draw` with the levels read once: on 1,500 marks, reading the settings per mark was most of a redraw. */
  private withLevels(draw: () => void): void {
    this.drawLevels = new Map(KINDS.map((k) => [k, this.level(k)]));
    try {
      draw();
    } finally {
      this.drawLevels = undefined;
    }
  }

  /** The drawn annotations on a line (1-based) of a file of the run, for hovers. */
  annotationsAt(uri: vscode.Uri, line: number): { file: string; decorations: readonly Decoration[] } | undefined {
    const file = this.annotations ? this.relativePath(uri) : undefined;
    if (file === undefined) return undefined;
    return { file, decorations: this.visible(file).filter((d) => d.startLine <= line && d.endLine >= line) };
  }

  private edited(e: vscode.TextDocumentChangeEvent): void {
    const file = this.relativePath(e.document.uri);
    if (file === undefined || e.contentChanges.length === 0) return;
    const list = this.drawn.get(file);
    // Drawn lines are the work tree's, whichever step is annotated: they follow the typing. The
    // editor moves the decorations it shows by itself; this keeps hovers, labels and the next
    // paint (an editor opened again) in step with it, without sending every mark again per key.
    if (list) {
      // Changes of one event are reported bottom-up on the original text, so they apply in order.
      const edits = e.contentChanges.map((c) => toLineEdit(c.range.start.line, c.range.end.line, c.text));
      this.drawn.set(file, mapSpans(list, edits));
    }
    this.schedule(DEBOUNCE_MS);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, ms);
  }

  /** Re-analyses the annotated step; a newer refresh cancels this one. */
  async refresh(): Promise<void> {
    this.inFlight?.cancel();
    const cts = (this.inFlight = new vscode.CancellationTokenSource());
    const run = this.services.run;
    try {
      // Restricted Mode: the analysis reads the repository with git, which ChainLens does not run there.
      if (!run || !vscode.workspace.isTrusted) return this.set(undefined);
      // A person solving a study step blind: nothing is analysed against gold, so no decoration,
      // Problems entry, hover, CodeLens or gold document can exist (docs/study.md).
      if (!this.services.disclosure.current.annotations) return this.set(undefined);
      // A step the person chose is forgotten once the run moves to another step (submit, switch).
      const position = `${run.state.runId}:${run.state.currentStep ?? 'done'}`;
      if (this.runPosition !== undefined && this.runPosition !== position) this.chosenStep = undefined;
      this.runPosition = position;
      const unsaved = new Map<string, string>();
      for (const d of vscode.workspace.textDocuments) {
        const file = d.isDirty ? this.relativePath(d.uri) : undefined;
        if (file !== undefined) unsaved.set(file, d.getText());
      }
      const step = annotatedStep(run.state, this.chosenStep);
      if (!step) return this.set(undefined);
      // A person's own step outside a study: its gold stays hidden until submitted or revealed.
      if (!goldShown(this.services.disclosure.current, step.order)) return this.set(undefined);
      // Another step's marks go at once, not when the new analysis is done: the window never shows
      // one step's annotations while another is the one annotated (docs/reference/annotations.md).
      const previous = this.annotations;
      if (previous && (previous.runId !== run.state.runId || previous.order !== step.order)) this.set(undefined);
      const started = Date.now();
      const annotations = await annotateStep(run, step, {
        dirty: unsaved,
        analyzer: this.analysis,
        cancellation: cts.token,
      });
      if (cts.token.isCancellationRequested) return;
      const analysed = Date.now();
      this.set(annotations);
      this.services.output.debug(
        `annotations: step ${step.order} analysed in ${analysed - started} ms, drawn in ${Date.now() - analysed} ms (${annotations.decorations.size} file(s))`,
      );
      const since = annotations.lines.changedSince;
      if (since.length > 0)
        this.services.output.info(
          `annotations: step ${step.order}'s marks are shown where its code is unchanged since; changed since then: ${since.join(', ')}`,
        );
    } catch (e) {
      if (!cts.token.isCancellationRequested) this.services.output.warn(`annotations: ${errorMessage(e)}`);
    } finally {
      cts.dispose();
      if (this.inFlight === cts) this.inFlight = undefined;
    }
  }

  private withhold(): void {
    this.inFlight?.cancel();
    this.set(undefined);
  }

  private set(annotations: StepAnnotations | undefined): void {
    this.annotations = annotations;
    this.drawn = new Map(annotations?.decorations ?? []);
    this.publish();
    if (annotations) this.services.documents.refresh((ref) => ref.kind === 'version' && ref.version === 'gold');
    this.updated.fire(annotations);
  }

  private paint(): void {
    this.withLevels(() => this.paintNow());
  }

  private paintNow(): void {
    this.painter.paint(
      this.annotations,
      (u) => this.relativePath(u),
      (f) => this.visible(f),
      (k) => this.level(k) === 'quiet',
      this.levelsKey(),
    );
  }

  /**
   * Draws decorations and diagnostics from the current annotations and settings (bench/decorations.ts
   * times it). What an editor or a file's Problems entry already shows is not sent again.
   */
  publish(): void {
    this.withLevels(() => {
      this.paintNow();
      this.publishProblems();
    });
  }

  private publishProblems(): void {
    const a = this.annotations;
    if (a !== this.problemsOf) {
      // Another analysis (or none): its files replace the previous one's entirely.
      this.diagnostics.clear();
      this.problemsOf = a;
      // The same analysis shown again after a withhold: everything of it must be sent anew.
      if (a) this.problemsSent.forget(a);
    }
    if (!a) return;
    const entries: [vscode.Uri, vscode.Diagnostic[]][] = [];
    for (const file of a.decorations.keys()) {
      const uri = this.fileUri(file);
      if (!uri) continue;
      const list = this.visible(file);
      const diagnostics = this.problems.get(list, `${this.levelsKey()}/${file}`, () => diagnosticsFor(a, file, list));
      if (this.problemsSent.changed(a, file, diagnostics)) entries.push([uri, diagnostics]);
    }
    if (entries.length > 0) this.diagnostics.set(entries);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.inFlight?.cancel();
    for (const d of this.disposables) d.dispose();
  }
}
