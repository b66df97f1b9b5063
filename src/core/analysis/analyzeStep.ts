import type {
  EvidenceLine,
  FileCoverage,
  ScopeEntry,
  ScopeReport,
  SideRange,
  StepAnalysis,
  SymbolKind,
  SymbolMetrics,
  DriftSuggestion,
} from '../../protocol/analysis';
import { applyFilePatchWithEdits, type LineEdit } from '../patch/apply';
import { changedLines, mapOldLineToNew } from '../patch/lines';
import { touchedPaths } from '../patch/paths';
import { filePath, type FilePatch, type Patch } from '../patch/types';
import type { CancellationTokenLike } from '../util/cancellation';
import { UserError } from '../util/errors';
import { suggestDrift } from './drift';
import { symbolMetrics } from './symbolMetrics';
import { syntaxEdits } from './edits';
import { MODULE_SYMBOL, type SourceOutline, type SymbolIndex } from './symbols';
import { languageOf } from './syntax';

export type PatchSide = 'step' | 'gold';

export interface AnalyzeStepInput {
  readonly stepPatch: Patch;
  readonly goldPatch: Patch;
  /** The file as it was before that side's patch (usually both: the base commit); undefined if absent. */
  readFile(path: string, side: PatchSide): Promise<string | undefined>;
  /** Symbol mapping; without it (or for languages it cannot parse) analysis is file-level. */
  readonly symbols?: SymbolIndex;
  readonly cancellation?: CancellationTokenLike;
  /**
   * Called with the outline of each file as the step's patch leaves it, while it is open (it is
   * disposed after): the editor reads the symbols of the changed lines from it instead of
   * parsing the file once more.
   */
  readonly onStepVersion?: (path: string, outline: SourceOutline) => void;
  /**
   * Analyses the file pairs elsewhere (worker threads, each calling `analyzeFilePairs`) instead
   * of one after the other here; the result is the same, as each pair is analysed on its own.
   */
  readonly filePairs?: FilePairAnalyzer;
}

/** Runs `analyzeFilePairs` over parts of `pairs`, wherever; results in the order of `pairs`. */
export interface FilePairAnalyzer {
  analyzeFiles(pairs: readonly FilePair[]): Promise<FileResult[]>;
}

/** One file as the step's patch and gold's name it (plain data: it can be posted to a worker). */
export interface FilePair {
  readonly path: string;
  step?: FilePatch;
  gold?: FilePatch;
}

export interface Touch {
  kind: SymbolKind;
  /** Lines on the patch's own post-image. */
  readonly postLines: number[];
  /** Where the change sits on the step's version of the file. */
  readonly stepLines: number[];
  readonly evidence: EvidenceLine[];
}

/** What one file pair contributes to the analysis (plain data: structured-cloneable). */
export interface FileResult {
  readonly coverage: FileCoverage;
  readonly stepTouches: Map<string, Touch>;
  readonly goldTouches: Map<string, Touch>;
  readonly metrics: SymbolMetrics[];
  readonly drift: DriftSuggestion[];
}

/** |A∩B| / |A∪B|, null when both are empty (nothing to compare). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number | null {
  const union = new Set([...a, ...b]);
  if (union.size === 0) return null;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / union.size;
}

function toRanges(side: SideRange['side'], lines: readonly number[]): SideRange[] {
  const sorted = [...new Set(lines)].sort((x, y) => x - y);
  const out: SideRange[] = [];
  for (const l of sorted) {
    const last = out[out.length - 1];
    if (last && last.side === side && l === last.endLine + 1) out[out.length - 1] = { ...last, endLine: l };
    else out.push({ side, startLine: l, endLine: l });
  }
  return out;
}

export function pairFiles(step: Patch, gold: Patch): FilePair[] {
  const pairs = new Map<string, FilePair>();
  for (const f of step.files) pairs.set(filePath(f), { path: filePath(f), step: f });
  for (const g of gold.files) {
    let pair = pairs.get(filePath(g));
    if (!pair || pair.gold) {
      // Gold may name the file by its other side (one patch renames, the other edits).
      pair =
        [...pairs.values()].find(
          (p) => !p.gold && p.step && (p.step.oldPath === g.oldPath || p.step.newPath === g.oldPath),
        ) ?? undefined;
    }
    if (pair && !pair.gold) pair.gold = g;
    else pairs.set(filePath(g), { path: filePath(g), gold: g });
  }
  return [...pairs.values()];
}

const isBlank = (text: string) => text.trim() === '';

/** Which symbol each added/removed line of a patch falls in (blank lines count for none). */
function touchesOf(
  file: FilePatch | undefined,
  pre: SourceOutline,
  post: SourceOutline,
  stepFile: FilePatch | undefined,
  side: PatchSide,
): Map<string, Touch> {
  const out = new Map<string, Touch>();
  if (!file) return out;
  for (const cl of changedLines(file)) {
    if (isBlank(cl.text)) continue;
    const sym = cl.kind === 'del' ? pre.symbolAt(cl.oldLine) : post.symbolAt(cl.newLine);
    const name = sym?.qualifiedName ?? MODULE_SYMBOL;
    let t = out.get(name);
    if (!t) {
      t = { kind: sym?.kind ?? 'module', postLines: [], stepLines: [], evidence: [] };
      out.set(name, t);
    }
    t.postLines.push(cl.newLine);
    t.stepLines.push(side === 'step' ? cl.newLine : mapOldLineToNew(stepFile, cl.oldLine));
    t.evidence.push(
      cl.kind === 'add'
        ? { side, file: filePath(file), line: cl.newLine, text: cl.text }
        : { side: 'base', file: filePath(file), line: cl.oldLine, text: cl.text },
    );
  }
  return out;
}

/** File-level touches when no symbols can be had: one pseudo-entry holding every changed line. */
function fileLevelLines(
  file: FilePatch | undefined,
  stepFile: FilePatch | undefined,
  side: PatchSide,
): { post: number[]; step: number[] } {
  const post: number[] = [];
  const step: number[] = [];
  for (const cl of file ? changedLines(file) : []) {
    post.push(cl.newLine);
    step.push(side === 'step' ? cl.newLine : mapOldLineToNew(stepFile, cl.oldLine));
  }
  return { post, step };
}

class FileAnalysis {
  private readonly outlines = new Map<string, Promise<SourceOutline | undefined>>();

  constructor(
    private readonly pair: FilePair,
    private readonly input: Pick<AnalyzeStepInput, 'readFile' | 'symbols' | 'onStepVersion'>,
  ) {}

  private async preImage(side: PatchSide): Promise<string | undefined> {
    const own = side === 'step' ? this.pair.step : this.pair.gold;
    const other = side === 'step' ? this.pair.gold : this.pair.step;
    if (own?.status === 'added') return '';
    const source = own?.oldPath ?? other?.oldPath ?? this.pair.path;
    return this.input.readFile(source, side);
  }

  /** Each distinct text is parsed once; a post-image is parsed as an edit of its pre-image. */
  private async open(text: string, from?: { text: string; edits: LineEdit[] }): Promise<SourceOutline | undefined> {
    let o = this.outlines.get(text);
    if (!o) {
      const base = from && (await this.outlines.get(from.text)?.catch(() => undefined));
      o = this.input.symbols!.open(
        this.pair.path,
        text,
        base && from ? { outline: base, edits: syntaxEdits(from.text, text, from.edits) } : undefined,
      );
      this.outlines.set(text, o);
    }
    return o;
  }

  private fileLevel(note: string, language: string | null): FileResult {
    return {
      coverage: { file: this.pair.path, language, level: 'file', note },
      stepTouches: new Map(),
      goldTouches: new Map(),
      metrics: [],
      drift: [],
    };
  }

  async run(): Promise<FileResult> {
    const { pair, input } = this;
    const language = languageOf(pair.path) ?? null;
    if (pair.step?.binary || pair.gold?.binary) return this.fileLevel('binary change', language);
    if (!input.symbols) return this.fileLevel('no symbol index given', language);
    if (!language) return this.fileLevel('no grammar for this file type: file-level only', null);

    const [stepPre, goldPre] = await Promise.all([this.preImage('step'), this.preImage('gold')]);
    if (stepPre === undefined || goldPre === undefined)
      return this.fileLevel(
        `the file before the ${stepPre === undefined ? 'step' : 'gold'} patch could not be read`,
        language,
      );
    let stepPost: string;
    let goldPost: string;
    let stepEdits: LineEdit[] = [];
    let goldEdits: LineEdit[] = [];
    try {
      ({ text: stepPost, edits: stepEdits } = pair.step
        ? applyFilePatchWithEdits(stepPre, pair.step)
        : { text: stepPre, edits: [] });
      ({ text: goldPost, edits: goldEdits } = pair.gold
        ? applyFilePatchWithEdits(goldPre, pair.gold)
        : { text: goldPre, edits: [] });
    } catch (e) {
      if (e instanceof UserError) return this.fileLevel(e.message, language);
      throw e;
    }
    try {
      let outlines: (SourceOutline | undefined)[];
      try {
        const sPre = await this.open(stepPre);
        const gPre = await this.open(goldPre);
        outlines = [
          sPre,
          await this.open(stepPost, { text: stepPre, edits: stepEdits }),
          gPre,
          await this.open(goldPost, { text: goldPre, edits: goldEdits }),
        ];
      } catch (e) {
        return this.fileLevel(`symbols unavailable, file-level only: ${(e as Error).message}`, language);
      }
      const [sPre, sPost, gPre, gPost] = outlines;
      if (!sPre || !sPost || !gPre || !gPost)
        return this.fileLevel(`no ${language} symbols: file-level only`, language);
      if (pair.step) input.onStepVersion?.(pair.path, sPost);
      const stepTouches = touchesOf(pair.step, sPre, sPost, pair.step, 'step');
      const goldTouches = touchesOf(pair.gold, gPre, gPost, pair.step, 'gold');
      const metrics: SymbolMetrics[] = [];
      const drift: DriftSuggestion[] = [];
      const names = [...new Set([...stepTouches.keys(), ...goldTouches.keys()])].filter((n) => n !== MODULE_SYMBOL);
      for (const name of names) {
        // The pre-image first: post-images parsed from it reuse what was copied of its unchanged
        // parts. Only its metrics are shown, so only they are computed.
        const base = sPre.maintainability(name);
        const step = sPost.detail(name);
        const gold = gPost.detail(name);
        const stepM = step ? sPost.maintainability(name) : undefined;
        const goldM = gold ? gPost.maintainability(name) : undefined;
        metrics.push(symbolMetrics(pair.path, name, base, stepM, goldM));
        if (step && gold) {
          drift.push(
            ...suggestDrift({
              file: pair.path,
              symbol: name,
              step,
              gold,
              touchedByStep: stepTouches.has(name),
              touchedByGold: goldTouches.has(name),
              stepChanges: stepTouches.get(name)?.evidence ?? [],
            }),
          );
        }
      }
      return { coverage: { file: pair.path, language, level: 'symbol' }, stepTouches, goldTouches, metrics, drift };
    } finally {
      for (const o of this.outlines.values()) (await o.catch(() => undefined))?.dispose();
    }
  }
}

/** Each pair analysed on its own, in order: what a worker given some of a step's pairs runs. */
export async function analyzeFilePairs(
  pairs: readonly FilePair[],
  input: Pick<AnalyzeStepInput, 'readFile' | 'symbols' | 'cancellation'>,
): Promise<FileResult[]> {
  const out: FileResult[] = [];
  for (const pair of pairs) {
    if (input.cancellation?.isCancellationRequested) throw new UserError('patch analysis cancelled', 'state');
    out.push(await new FileAnalysis(pair, input).run());
  }
  return out;
}

function scope(
  step: ReadonlySet<string>,
  gold: ReadonlySet<string>,
  overshoot: ScopeEntry[],
  undershoot: ScopeEntry[],
  forJaccard?: (key: string) => boolean,
): ScopeReport {
  const keep = forJaccard ?? (() => true);
  return {
    step: [...step],
    gold: [...gold],
    overshoot,
    undershoot,
    jaccard: jaccard(new Set([...step].filter(keep)), new Set([...gold].filter(keep))),
  };
}

const byPosition = (a: ScopeEntry, b: ScopeEntry) =>
  a.file.localeCompare(b.file) || (a.ranges[0]?.startLine ?? 0) - (b.ranges[0]?.startLine ?? 0);

/**
 * Overshoot, undershoot, Jaccard overlaps, per-symbol metric deltas and drift suggestions of a
 * step's patch against its gold patch. Relative to gold, not proof of a bug. Pure: files come
 * through `readFile`, symbols through `symbols`.
 */
export async function analyzeStep(input: AnalyzeStepInput): Promise<StepAnalysis> {
  const stepFiles = new Set(touchedPaths(input.stepPatch));
  const goldFiles = new Set(touchedPaths(input.goldPatch));
  const pairs = pairFiles(input.stepPatch, input.goldPatch);

  const fileOvershoot: ScopeEntry[] = [];
  const fileUndershoot: ScopeEntry[] = [];
  const symOvershoot: ScopeEntry[] = [];
  const symUndershoot: ScopeEntry[] = [];
  const stepPairs = new Set<string>();
  const goldPairs = new Set<string>();
  const metrics: SymbolMetrics[] = [];
  const drift: DriftSuggestion[] = [];
  const coverage: FileCoverage[] = [];

  const elsewhere = input.filePairs ? await input.filePairs.analyzeFiles(pairs) : undefined;
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i];
    if (input.cancellation?.isCancellationRequested) throw new UserError('patch analysis cancelled', 'state');
    const r = elsewhere ? elsewhere[i] : await new FileAnalysis(pair, input).run();
    coverage.push(r.coverage);
    metrics.push(...r.metrics);
    drift.push(...r.drift);

    const stepNames = [pair.step?.oldPath, pair.step?.newPath].filter((p): p is string => !!p);
    const goldNames = [pair.gold?.oldPath, pair.gold?.newPath].filter((p): p is string => !!p);
    if (stepNames.some((p) => !goldFiles.has(p))) {
      const lines = fileLevelLines(pair.step, pair.step, 'step');
      fileOvershoot.push({ file: pair.path, ranges: toRanges('step', lines.post) });
    }
    if (goldNames.some((p) => !stepFiles.has(p))) {
      const lines = fileLevelLines(pair.gold, pair.step, 'gold');
      fileUndershoot.push({
        file: pair.path,
        ranges: [...toRanges('gold', lines.post), ...toRanges('step', lines.step)],
      });
    }

    for (const [name, t] of r.stepTouches) {
      stepPairs.add(`${pair.path}::${name}`);
      if (!r.goldTouches.has(name))
        symOvershoot.push({ file: pair.path, symbol: name, kind: t.kind, ranges: toRanges('step', t.postLines) });
    }
    for (const [name, t] of r.goldTouches) {
      goldPairs.add(`${pair.path}::${name}`);
      if (!r.stepTouches.has(name))
        symUndershoot.push({
          file: pair.path,
          symbol: name,
          kind: t.kind,
          ranges: [...toRanges('gold', t.postLines), ...toRanges('step', t.stepLines)],
        });
    }
  }

  return {
    files: scope(stepFiles, goldFiles, fileOvershoot.sort(byPosition), fileUndershoot.sort(byPosition)),
    symbols: scope(
      stepPairs,
      goldPairs,
      symOvershoot.sort(byPosition),
      symUndershoot.sort(byPosition),
      (k) => !k.endsWith(`::${MODULE_SYMBOL}`),
    ),
    metrics,
    drift,
    coverage,
  };
}
