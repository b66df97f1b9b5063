// The part of annotating a step that parses: the analysis engine over both patches and their
// pre-images, and the symbols of the step's changed lines. Everything in and out is plain data,
// so the editor runs it in its analysis worker (analysisWorker.ts) and the result is the same as
// on the caller's thread.
import { analyzeStep } from '../../core/analysis/analyzeStep';
import { changedSymbols, ownersOf, type ChangedSymbol, type LineOwners } from '../../core/analysis/changedSymbols';
import type { LineSpan } from '../../core/analysis/rangeMapping';
import type { SymbolIndex } from '../../core/analysis/symbols';
import { changedLines } from '../../core/patch/lines';
import { filePath, type Patch } from '../../core/patch/types';
import type { CancellationTokenLike } from '../../core/util/cancellation';
import type { StepAnalysis } from '../../protocol/analysis';

export interface StepFilesJob {
  readonly stepPatch: Patch;
  readonly goldPatch: Patch;
  /** Each file as it was at the step's start, by repository path (absent: not in the commit). */
  readonly preImages: ReadonlyMap<string, string | undefined>;
  /**
   * Where gold's patch does not apply at the step's start (Seq mode, on the agent's work): the
   * file at the step's Oracle start, which gold is applied to instead.
   */
  readonly goldPreImages?: ReadonlyMap<string, string>;
}

export interface StepFilesResult {
  readonly analysis: StepAnalysis;
  /** Lines the step's patch changes, per file of the step's patch, in the step's lines. */
  readonly changed: ReadonlyMap<string, readonly LineSpan[]>;
  readonly symbols: readonly ChangedSymbol[];
}

/** Runs a job: in-thread (`analyzeStepFiles`) or in the analysis worker (AnalysisThread). */
export interface StepFilesAnalyzer {
  analyze(job: StepFilesJob, cancellation?: CancellationTokenLike): Promise<StepFilesResult>;
}

export async function analyzeStepFiles(
  job: StepFilesJob,
  symbols: SymbolIndex | undefined,
  cancellation?: CancellationTokenLike,
): Promise<StepFilesResult> {
  const { stepPatch, goldPatch, preImages, goldPreImages } = job;
  const owners = new Map<string, LineOwners>();
  const stepByPath = new Map(stepPatch.files.map((f) => [filePath(f), f] as const));
  const analysis = await analyzeStep({
    stepPatch,
    goldPatch,
    readFile: async (p, side) => (side === 'gold' ? goldPreImages?.get(p) : undefined) ?? preImages.get(p),
    symbols,
    cancellation,
    onStepVersion: (path, outline) => {
      const f = stepByPath.get(path);
      if (f)
        owners.set(
          path,
          ownersOf(
            outline,
            changedLines(f).map((c) => c.newLine),
          ),
        );
    },
  });
  const changed = new Map<string, LineSpan[]>();
  const found: ChangedSymbol[] = [];
  for (const f of stepPatch.files) {
    const r = await changedSymbols(
      f,
      f.oldPath === null ? undefined : preImages.get(f.oldPath),
      symbols,
      analysis.drift,
      owners.get(filePath(f)),
    );
    changed.set(filePath(f), r.spans);
    found.push(...r.symbols);
  }
  return { analysis, changed, symbols: found };
}
