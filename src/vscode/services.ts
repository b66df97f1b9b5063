// What every ChainLens feature gets from activate(): the active run, the evaluation service and
// the output channel. Features (tree, testing, annotations, labels, trajectories, agent tools)
// are registered by one call each, registerX(context, services), and talk to each other only
// through these services and their events.
import type * as vscode from 'vscode';
import type { ChainEvaluation, StepEvaluation } from '../protocol/evaluation';
import type { RunMode } from '../protocol/run';
import type { ChainRunSnapshot } from '../app/run/snapshot';
import type { StepAnnotations } from '../app/analysis/annotateStep';
import type { SymbolLookup } from '../core/analysis/symbols';
import type { ChainLensDocuments } from './documents/chainLensDocuments';
import type { Disclosure } from '../core/study/disclosure';

/** The run of the work tree the window has open: what the tree, Testing view and status bar show. */
export type { ChainRunSnapshot };

export interface ActiveRunService {
  /** undefined while no chain is open in this window. */
  readonly current: ChainRunSnapshot | undefined;
  /** Fires after a run was opened, started, submitted, switched or changed on disk (e.g. by the CLI). */
  readonly onDidChange: vscode.Event<ChainRunSnapshot | undefined>;
  /** True while an engine operation (start, submit, switch) is running; they never overlap. */
  readonly busy: boolean;
  /** Re-reads the run from disk. */
  reload(): Promise<void>;
  /** The open run, or a UserError telling the person to open a chain first. */
  require(): ChainRunSnapshot;
}

export type EvaluationSource = StepEvaluation['source'];

export interface EvaluateOptions {
  /** Default: the current step. */
  readonly step?: number;
  readonly source: EvaluationSource;
  readonly token?: vscode.CancellationToken;
  /** Who asked, so a listener can tell its own evaluations from others' (e.g. 'testing'). */
  readonly origin?: string;
}

/** One evaluation in flight, announced by EvaluationService.onDidStart. */
export interface EvaluationInFlight {
  readonly runId: string;
  readonly step: number;
  readonly source: EvaluationSource;
  readonly origin: string | undefined;
  /** The container's output as it arrives (LF line ends, as the engine writes them). */
  readonly onLog: vscode.Event<string>;
  readonly onProgress: vscode.Event<string>;
  /** Settles when the evaluation ends; rejects only when it could not start (e.g. Restricted Mode). */
  readonly result: Promise<StepEvaluation>;
  cancel(): void;
}

export interface EvaluationService {
  /** Runs one step's F2P/P2P tests in a container (never in an untrusted workspace). */
  evaluate(options: EvaluateOptions): Promise<StepEvaluation>;
  readonly onDidStart: vscode.Event<EvaluationInFlight>;
  readonly onDidEvaluate: vscode.Event<StepEvaluation>;
  /** Latest evaluation of a step in the active run: of `source` when given, else of either. */
  latest(step: number, source?: EvaluationSource): StepEvaluation | undefined;
  /** The run's report in SWE-bench's shape (every step's latest submitted evaluation). */
  exportReport(): Promise<ChainEvaluation>;
  /** Why containers cannot run here (Restricted Mode), or undefined when they can. */
  blockedReason(): string | undefined;
  readonly running: boolean;
}

/**
 * What of gold and the hidden tests may reach the window now (src/vscode/study/disclosureGate.ts):
 * every gold-derived feature asks it; outside studies it allows everything.
 */
export interface DisclosureService {
  readonly current: Disclosure;
  readonly onDidChange: vscode.Event<Disclosure>;
  /**
   * Throws a UserError saying why, when `feature` is withheld now; `what` names the refused action,
   * `step` the step whose gold it shows (a person's own step's gold is withheld outside studies too).
   */
  require(feature: 'annotations' | 'goldDocuments', what: string, step?: number): void;
  /** Researcher views (Study Results, exports) are refused inside a participant's session. */
  requireResearcher(what: string): void;
}

/**
 * The step annotated in the editor, for the features built on it (drift labels, symbol compare):
 * they read it through this interface, so annotations never import them back.
 */
export interface StepAnnotationsService {
  readonly current: StepAnnotations | undefined;
  /** Fires after the annotations were recomputed or cleared. */
  readonly onDidUpdate: vscode.Event<unknown>;
  /** Symbols of a file's text, parsed where the annotations are (the analysis worker). */
  readonly symbols: SymbolLookup;
  /** The file's path relative to the annotated work tree, or undefined when outside it. */
  relativePath(uri: vscode.Uri): string | undefined;
  /** The work tree file behind a repository-relative path. */
  fileUri(file: string): vscode.Uri | undefined;
}

export interface ChainLensServices {
  readonly context: vscode.ExtensionContext;
  /** "ChainLens" log channel: engine progress, evaluation summaries, error details. */
  readonly output: vscode.LogOutputChannel;
  readonly runs: ActiveRunService;
  readonly evaluation: EvaluationService;
  /** Shortcut for runs.current. */
  readonly run: ChainRunSnapshot | undefined;
  /** Shortcut for runs.onDidChange. */
  readonly onDidChangeRun: vscode.Event<ChainRunSnapshot | undefined>;
  /** The one provider of `chainlens:` documents (file versions, patches, trajectory texts). */
  readonly documents: ChainLensDocuments;
  /** The study's blind-solving gate (allows everything outside studies). */
  readonly disclosure: DisclosureService;
}

/** Mode names as people write them. */
export function modeLabel(mode: RunMode): string {
  return mode === 'seq' ? 'Seq' : 'Oracle';
}
