// One step's patch against its gold patch, for the editor: the analysis engine (src/core/analysis)
// fed from git (pre-images at the step's start in one `git cat-file --batch`), the step's patch
// (start..end once submitted; start..work tree while current, with unsaved editor text folded in)
// and the chain's gold patch. No 'vscode' here: the editor layer passes what it knows.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { analyzeStep } from '../../core/analysis/analyzeStep';
import { decorationsFor } from '../../core/analysis/decorations';
import { MODULE_SYMBOL, type CodeSymbol, type SourceOutline, type SymbolIndex } from '../../core/analysis/symbols';
import { applyFilePatch } from '../../core/patch/apply';
import { changedLines } from '../../core/patch/lines';
import { parsePatch } from '../../core/patch/parse';
import { filePath, type FilePatch, type Patch } from '../../core/patch/types';
import type { CancellationTokenLike } from '../../core/util/cancellation';
import type { Decoration, DriftSuggestion, StepAnalysis } from '../../protocol/analysis';
import type { StepState } from '../../protocol/run';
import { readBlobs } from '../../infra/git/blobReader';
import type { ChainRunSnapshot } from '../services';
import type { LineSpan } from './rangeMapping';
import { SAME_LINES, workTreeLines, type WorkTreeLines } from './sinceStep';

/** A symbol (or top-level code) the step's patch changes: what a person labels. */
export interface ChangedSymbol {
  readonly file: string;
  /** Qualified name, or `<module>` for top-level code. */
  readonly symbol: string;
  readonly startLine: number;
  readonly endLine: number;
  /** ChainLens's primary drift suggestion for it, if any. */
  readonly suggestion?: DriftSuggestion;
}

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
   * Lines above are those of the work tree. A submitted step's own lines differ once the tree has
   * moved on (later steps, Oracle's gold states): this maps between them, and label records are
   * kept in the step's lines.
   */
  readonly lines: WorkTreeLines;
  readonly goldPatch: Patch;
  /** The file after the gold patch (pre-image at the step's start), undefined when gold deletes it. */
  goldText(path: string): Promise<string | undefined>;
}

/** Does the current step's work tree differ from its start? (cheap: no analysis) */
export async function workTreeChanged(run: ChainRunSnapshot, step: StepState): Promise<boolean> {
  if (!step.start || step.end) return false;
  return (await run.workspace.git.diffWorkTree(step.start)).trim() !== '';
}

function spansOf(lines: readonly number[]): LineSpan[] {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: { startLine: number; endLine: number }[] = [];
  for (const l of sorted) {
    const last = out[out.length - 1];
    if (last && l <= last.endLine + 1) last.endLine = l;
    else out.push({ startLine: l, endLine: l });
  }
  return out;
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
  for (const [path, now] of dirty) {
    const before = pre.get(path);
    if (before === undefined) continue;
    files.delete(path);
    if (before === now) continue;
    const one = parsePatch(
      createTwoFilesPatch(`a/${path}`, `b/${path}`, before, now, undefined, undefined, {
        headerOptions: FILE_HEADERS_ONLY,
      }),
      path,
    );
    for (const f of one.files) files.set(path, f);
  }
  return { files: [...files.values()] };
}

/** The innermost symbol of each changed line, read while an outline of the step's version is open. */
type LineOwners = ReadonlyMap<number, CodeSymbol | undefined>;

function ownersOf(outline: SourceOutline, lines: readonly number[]): LineOwners {
  return new Map(lines.map((l) => [l, outline.symbolAt(l)] as const));
}

/**
 * The symbols a file's changed lines belong to. `owners` comes from the analysis's own outline of
 * the step's version; without it (file-level analysis) the version is parsed here.
 */
async function changedSymbols(
  file: FilePatch,
  pre: string | undefined,
  symbols: SymbolIndex | undefined,
  drift: readonly DriftSuggestion[],
  owners: LineOwners | undefined,
): Promise<{ spans: LineSpan[]; symbols: ChangedSymbol[] }> {
  const path = filePath(file);
  const lines = changedLines(file).map((c) => c.newLine);
  const spans = spansOf(lines);
  if (file.newPath === null || file.binary || spans.length === 0) return { spans, symbols: [] };
  if (!owners) {
    let post: string;
    try {
      post = applyFilePatch(pre ?? '', file);
    } catch {
      return { spans, symbols: spans.map((s) => ({ file: path, symbol: MODULE_SYMBOL, ...s })) };
    }
    const outline = await symbols?.open(path, post);
    owners = outline ? ownersOf(outline, lines) : new Map();
    outline?.dispose();
  }
  const found = new Map<string, { startLine: number; endLine: number }>();
  for (const line of lines) {
    const sym = owners.get(line);
    const key = sym?.qualifiedName ?? MODULE_SYMBOL;
    const prev = found.get(key);
    if (sym) found.set(key, { startLine: sym.startLine, endLine: sym.endLine });
    else
      found.set(key, {
        startLine: Math.min(prev?.startLine ?? line, line),
        endLine: Math.max(prev?.endLine ?? line, line),
      });
  }
  const out = [...found].map(([symbol, r]) => {
    const suggestion = drift.find((s) => s.file === path && s.symbol === symbol && s.primary);
    return { file: path, symbol, ...r, ...(suggestion ? { suggestion } : {}) };
  });
  return { spans, symbols: out.sort((a, b) => a.startLine - b.startLine) };
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
  options: { dirty: ReadonlyMap<string, string>; symbols?: SymbolIndex; cancellation?: CancellationTokenLike },
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
  const owners = new Map<string, LineOwners>();
  const stepByPath = new Map(stepPatch.files.map((f) => [filePath(f), f] as const));
  const analysis = await analyzeStep({
    stepPatch,
    goldPatch,
    readFile: async (p) => blobs.get(p),
    symbols: options.symbols,
    cancellation: options.cancellation,
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
  const decorations = new Map(decorationsFor(analysis).map((f) => [f.file, f.decorations] as const));
  const changed = new Map<string, LineSpan[]>();
  const symbols: ChangedSymbol[] = [];
  for (const f of stepPatch.files) {
    const r = await changedSymbols(
      f,
      f.oldPath === null ? undefined : blobs.get(f.oldPath),
      options.symbols,
      analysis.drift,
      owners.get(filePath(f)),
    );
    changed.set(filePath(f), r.spans);
    symbols.push(...r.symbols);
  }
  const lines = step.end
    ? await sinceStepEnd(run, step.end, [...decorations.keys(), ...changed.keys()], options.dirty)
    : SAME_LINES;
  const goldByPath = new Map(goldPatch.files.map((f) => [filePath(f), f] as const));
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
    lines,
    goldPatch,
    async goldText(path) {
      const f = goldByPath.get(path);
      const pre =
        (f?.oldPath ? blobs.get(f.oldPath) : blobs.get(path)) ?? (await readBlobs(run.dir, start, [path])).get(path);
      if (!f) return pre;
      if (f.newPath === null) return undefined;
      return applyFilePatch(pre ?? '', f);
    },
  };
}
