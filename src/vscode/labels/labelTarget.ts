// What a label is attached to: a changed symbol (or lines) of the annotated step, and the record
// written for it. Targets arrive in the work tree's lines; records keep the step's own lines.
import type { ChangedSymbol, StepAnnotations } from '../../app/analysis/annotateStep';
import type { DriftLabel, DriftLabelRecord } from '../../protocol/labels';

export interface LabelTarget {
  readonly file: string;
  readonly symbol: string | null;
  readonly startLine: number;
  readonly endLine: number;
}

function stepRange(a: StepAnnotations, target: LabelTarget): { startLine: number; endLine: number } {
  const span = { startLine: target.startLine, endLine: Math.max(target.startLine, target.endLine) };
  const r = a.lines.toStep(target.file, span);
  if (!r)
    throw new Error(
      `${target.file} lines ${span.startLine}-${span.endLine} have changed since step ${a.order}: label what the step wrote, where it is unchanged.`,
    );
  return { startLine: r.startLine, endLine: r.endLine };
}

/**
 * Where a symbol the step changed is shown for labelling: in the work tree where its lines are
 * still there, else in the step's own version (its end commit), since later steps of a finished
 * chain may have edited it again. `lines` are those of the document shown.
 */
export type SymbolPlace =
  | { readonly in: 'work tree'; readonly lines: LabelTarget }
  | { readonly in: 'step version'; readonly lines: LabelTarget };

export function placeOf(a: StepAnnotations, s: ChangedSymbol): SymbolPlace {
  const target = symbolTarget(s);
  const now = a.lines.toWorkTree(s.file, s);
  return now
    ? { in: 'work tree', lines: { ...target, startLine: now.startLine, endLine: now.endLine } }
    : { in: 'step version', lines: target };
}

/** The record of a label on a symbol in the step's own lines (the walk over `stepSymbols`). */
export function stepSymbolRecord(
  a: StepAnnotations,
  s: ChangedSymbol,
  label: DriftLabel,
  rationale: string,
  labeller: string,
  time: Date = new Date(),
): DriftLabelRecord {
  return {
    ...recordOf(a, symbolTarget(s), label, rationale, labeller, time),
    range: { startLine: s.startLine, endLine: s.endLine },
  };
}

/** The record of one label on the annotated step; `target` lines are the work tree's. */
export function labelRecord(
  a: StepAnnotations,
  target: LabelTarget,
  label: DriftLabel,
  rationale: string,
  labeller: string,
  time: Date = new Date(),
): DriftLabelRecord {
  return { ...recordOf(a, target, label, rationale, labeller, time), range: stepRange(a, target) };
}

function recordOf(
  a: StepAnnotations,
  target: LabelTarget,
  label: DriftLabel,
  rationale: string,
  labeller: string,
  time: Date,
): Omit<DriftLabelRecord, 'range'> {
  return {
    chain: a.chainId,
    run: a.runId,
    step: a.order,
    instance: a.instance,
    file: target.file,
    symbol: target.symbol,
    label,
    rationale,
    labeller,
    source: 'human',
    time: time.toISOString(),
  };
}

/** The changed symbol a line belongs to (the innermost), for the label's target. */
export function symbolAt(a: StepAnnotations, file: string, line: number): ChangedSymbol | undefined {
  return a.symbols
    .filter((s) => s.file === file && s.startLine <= line && s.endLine >= line)
    .sort((x, y) => x.endLine - x.startLine - (y.endLine - y.startLine))[0];
}

/** What the CodeLens passes: the changed symbol to label. */
export function isSymbolArg(x: unknown): x is { file: string; symbol: string } {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as { file?: unknown }).file === 'string' &&
    typeof (x as { symbol?: unknown }).symbol === 'string'
  );
}

/** A symbol's target; top-level code is a range label (no symbol). */
export function symbolTarget(s: ChangedSymbol): LabelTarget {
  return {
    file: s.file,
    symbol: s.symbol === '<module>' ? null : s.symbol,
    startLine: s.startLine,
    endLine: s.endLine,
  };
}
