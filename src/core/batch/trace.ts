import type { BatchRecord } from '../../protocol/batch';

/** An earlier step's overshoot or undershoot where the failing step works. */
export interface TraceEntry {
  readonly position: number;
  readonly order: number;
  readonly kind: 'overshoot' | 'undershoot';
  readonly file: string;
  /** null: the analysis saw only the whole file (no grammar for its language). */
  readonly symbol: string | null;
  /** The failing step's gold patch changes this very symbol (not only the file). */
  readonly sameSymbol: boolean;
}

/**
 * Traces a chain error at Seq step `failing` to what the earlier Seq steps did differently from
 * gold (docs/reference/batch.md, "Chain errors"): each earlier step's symbol-level overshoot
 * (changed what gold left alone) and undershoot (left alone what gold changed) in a file the
 * failing step touches, its own patch or its gold patch. Entries on a symbol the failing step's
 * gold also changes come first: they are the likeliest cause. Relative to gold, not proof.
 */
export function traceChainError(failing: BatchRecord, earlier: readonly BatchRecord[]): TraceEntry[] {
  if (!failing.analysis) return [];
  const files = new Set([...failing.analysis.step_files, ...failing.analysis.gold_files]);
  const goldSymbols = new Set(failing.analysis.gold_symbols);
  const entries: TraceEntry[] = [];
  for (const r of earlier) {
    if (!r.analysis) continue;
    for (const kind of ['overshoot', 'undershoot'] as const)
      for (const mark of r.analysis[kind]) {
        if (!files.has(mark.file)) continue;
        entries.push({
          position: r.position,
          order: r.order,
          kind,
          file: mark.file,
          symbol: mark.symbol,
          sameSymbol: mark.symbol !== null && goldSymbols.has(`${mark.file}::${mark.symbol}`),
        });
      }
  }
  return entries.sort(
    (a, b) =>
      Number(b.sameSymbol) - Number(a.sameSymbol) ||
      a.position - b.position ||
      a.file.localeCompare(b.file) ||
      (a.symbol ?? '').localeCompare(b.symbol ?? ''),
  );
}
