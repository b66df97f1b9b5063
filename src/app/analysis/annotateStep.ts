// Annotate a step: its patch against its gold patch, the analysis engine (src/core/analysis) fed
// from git (pre-images at the step's start in one `git cat-file --batch`), the step's patch
// (start..end once submitted; start..work tree while current, with unsaved editor text folded in)
// and the chain's gold patch. The editor passes what it knows (unsaved text, its symbol index).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decorationsFor } from '../../core/analysis/decorations';
import type { ChangedSymbol } from '../../core/analysis/changedSymbols';
import type { LineSpan } from '../../core/analysis/rangeMapping';
import { SAME_LINES, workTreeLines, type WorkTreeLines } from '../../core/analysis/sinceStep';
import type { SymbolIndex } from '../../core/analysis/symbols';
import { parsePatch } from '../../core/patch/parse';
import { applyFilePatch } from '../../core/patch/apply';
import { filePath, type FilePatch, type Patch } from '../../core/patch/types';
import type { CancellationTokenLike } from '../../core/util/cancellation';
import type { Decoration, StepAnalysis } from '../../protocol/analysis';
import type { StepState } from '../../protocol/run';
import { readBlobs } from '../../infra/git/blobReader';
import { diffTexts } from '../../infra/git/textDiff';
import type { ChainRunSnapshot } from '../run/snapshot';
import { oracleStartText } from '../fileVersions/oracleStart';
import { analyzeStepFiles, type StepFilesAnalyzer } from './analyzeStepFiles';

export type { ChangedSymbol };

export interface StepAnnotations {
  readonly runId: string;
  readonly chainId: string;
  readonly order: number;
  readonly instance: string;
  /** The step is the current one and the lines are those of the work tree (else of the step's end). */
  readonly live: boolean;
  readonly start: string;
  readonly analysis: StepAnalysis;
  /** Decorations per file (repo-relative path), lines of the work tree (see `lines`). */
  readonly decorations: ReadonlyMap<string, readonly Decoration[]>;
  /** Lines the step's patch adds (or removes before), per file: where labels can be attached. */
  readonly changed: ReadonlyMap<string, readonly LineSpan[]>;
  readonly symbols: readonly ChangedSymbol[];
  /**
   * Every symbol the step changed, in the step's own lines (as its end commit has them), also
   * those the work tree has changed since: a finished chain's earlier steps are labelled here.
   */
  readonly stepSymbols: readonly ChangedSymbol[];
  /**
   * Lines above are those of the work tree. A submitted step's own lines differ once the tree has
   * moved on (later steps, Oracle's gold states): this maps between them, and label records are
   * kept in the step's lines.
   */
  readonly lines: WorkTreeLines;
  readonly goldPatch: Patch;
  /**
   * Files whose gold version is read on the step's Oracle start (base + the gold patches before
   * it), because gold's patch does not apply at the step's own start (Seq mode).
   */
  readonly goldOnOracle: readonly string[];
}

/**
 * Gold's pre-image of each file whose gold change does not apply at the step's start: the file
 * at the Oracle start, when gold applies there (else the file stays file-level, as before).
 */
async function goldPreImagesOf(
  run: ChainRunSnapshot,
  index: number,
  goldPatch: Patch,
  atStart: ReadonlyMap<string, string | undefined>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of goldPatch.files) {
    if (f.binary || f.oldPath === null) continue;
    const path = f.oldPath;
    if (applies(atStart.get(path), f)) continue;
    const oracle = await oracleStartText(run, index, path);
    if (oracle !== undefined && applies(oracle, f)) out.set(path, oracle);
  }
  return out;
}

function applies(text: string | undefined, f: FilePatch): boolean {
  if (text === undefined) return false;
  try {
    applyFilePatch(text, f);
    return true;
  } catch {
    return false;
  }
}

/** Does the current step's work tree differ from its start? (cheap: no analysis) */
export async function workTreeChanged(run: ChainRunSnapshot, step: StepState): Promise<boolean> {
  if (!step.start || step.end) return false;
  return (await run.workspace.git.diffWorkTree(step.start)).trim() !== '';
}

/** The step's patch, with unsaved editor text of the current step's files instead of what is on disk. */
async function stepPatchOf(run: ChainRunSnapshot, step: StepState, dirty: ReadonlyMap<string, string>): Promise<Patch> {
  const git = run.workspace.git;
  const start = step.start as string;
  const text = step.end ? await git.diff(start, step.end) : await git.diffWorkTree(start);
  const patch = parsePatch(text, `step ${step.order} patch`);
  if (step.end || dirty.size === 0) return patch;
  const pre = await readBlobs(run.dir, start, [...dirty.keys()]);
  const files = new Map(patch.files.map((f) => [filePath(f), f] as const));
  const changed = [...dirty].filter(([path, now]) => pre.has(path) && pre.get(path) !== now);
  const diffs = await Promise.all(changed.map(([path, now]) => diffTexts(pre.get(path)!, now)));
  for (const path of dirty.keys()) if (pre.has(path)) files.delete(path);
  changed.forEach(([path], i) => {
    for (const f of parsePatch(diffs[i], `unsaved ${path}`).files)
      files.set(path, { ...f, oldPath: path, newPath: path });
  });
  return { files: [...files.values()] };
}

/** The work tree (unsaved editor text first) against the step's end, for the files annotated. */
async function sinceStepEnd(
  run: ChainRunSnapshot,
  end: string,
  files: readonly string[],
  dirty: ReadonlyMap<string, string>,
): Promise<WorkTreeLines> {
  const unique = [...new Set(files)];
  const atEnd = await readBlobs(run.dir, end, unique);
  const now = new Map<string, string | undefined>();
  for (const file of unique)
    now.set(file, dirty.get(file) ?? (await readFile(join(run.dir, file), 'utf8').catch(() => undefined)));
  return workTreeLines(
    unique,
    (f) => atEnd.get(f),
    (f) => now.get(f),
  );
}

function mapEach<T extends LineSpan>(
  byFile: ReadonlyMap<string, readonly T[]>,
  lines: WorkTreeLines,
): Map<string, T[]> {
  return new Map(
    [...byFile].map(([file, spans]) => [file, spans.flatMap((s) => lines.toWorkTree(file, s) ?? [])] as const),
  );
}

export async function annotateStep(
  run: ChainRunSnapshot,
  step: StepState,
  options: {
    dirty: ReadonlyMap<string, string>;
    /** Where the parsing runs (the editor: its analysis worker); default here, with `symbols`. */
    analyzer?: StepFilesAnalyzer;
    symbols?: SymbolIndex;
    cancellation?: CancellationTokenLike;
  },
): Promise<StepAnnotations> {
  const index = run.state.steps.indexOf(step);
  const chainStep = run.chain.steps[index];
  const start = step.start as string;
  const stepPatch = await stepPatchOf(run, step, options.dirty);
  const goldPatch = parsePatch(chainStep.goldPatch, `gold patch of step ${step.order}`);
  const paths = [...stepPatch.files, ...goldPatch.files]
    .flatMap((f) => [f.oldPath, f.newPath])
    .filter((p): p is string => p !== null);
  const blobs = await readBlobs(run.dir, start, paths);
  const goldPreImages = await goldPreImagesOf(run, index, goldPatch, blobs);
  const job = { stepPatch, goldPatch, preImages: blobs, goldPreImages };
  const { analysis, changed, symbols } = options.analyzer
    ? await options.analyzer.analyze(job, options.cancellation)
    : await analyzeStepFiles(job, options.symbols, options.cancellation);
  const decorations = new Map(decorationsFor(analysis).map((f) => [f.file, f.decorations] as const));
  const lines = step.end
    ? await sinceStepEnd(run, step.end, [...decorations.keys(), ...changed.keys()], options.dirty)
    : SAME_LINES;
  return {
    runId: run.state.runId,
    chainId: run.chain.id,
    order: step.order,
    instance: step.instanceId,
    live: step.end === null,
    start,
    analysis,
    decorations: mapEach(decorations, lines),
    changed: mapEach(changed, lines),
    symbols: symbols.flatMap((x) => lines.toWorkTree(x.file, x) ?? []),
    stepSymbols: symbols,
    lines,
    goldPatch,
    goldOnOracle: [...goldPreImages.keys()],
  };
}
