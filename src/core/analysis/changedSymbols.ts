// The symbols (or top-level code) a step's patch changes, one entry per symbol with its line span:
// what a person labels and what the editor's lenses name. Pure: the outline of the step's version
// comes from the analysis (analyzeStep's onStepVersion) or from a SymbolIndex given here.
import type { DriftSuggestion } from '../../protocol/analysis';
import { applyFilePatch } from '../patch/apply';
import { changedLines } from '../patch/lines';
import { filePath, type FilePatch } from '../patch/types';
import type { LineSpan } from './rangeMapping';
import { MODULE_SYMBOL, type CodeSymbol, type SourceOutline, type SymbolIndex } from './symbols';

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

/** Sorted, merged spans of the given line numbers (adjacent lines join one span). */
export function spansOf(lines: readonly number[]): LineSpan[] {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: { startLine: number; endLine: number }[] = [];
  for (const l of sorted) {
    const last = out[out.length - 1];
    if (last && l <= last.endLine + 1) last.endLine = l;
    else out.push({ startLine: l, endLine: l });
  }
  return out;
}

/** The innermost symbol of each changed line, read while an outline of the step's version is open. */
export type LineOwners = ReadonlyMap<number, CodeSymbol | undefined>;

export function ownersOf(outline: SourceOutline, lines: readonly number[]): LineOwners {
  return new Map(lines.map((l) => [l, outline.symbolAt(l)] as const));
}

/**
 * The symbols a file's changed lines belong to. `owners` comes from the analysis's own outline of
 * the step's version; without it (file-level analysis) the version is parsed here.
 */
export async function changedSymbols(
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
