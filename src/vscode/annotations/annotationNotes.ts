// What the editor says about one file's annotations: one note per kind and place, in plain words
// first and the taxonomy code after. The diagnostics are the only text VS Code shows (in Problems
// and in the hover of the marked lines), so a line is never explained twice: drift suggestions
// of one symbol are one note, and EXTRA EDITS (the taxonomy's word for "changes code gold leaves
// alone") is folded into the overshoot note that says the same. Pure (no 'vscode').
import type { Decoration, DecorationKind, DriftSuggestion } from '../../protocol/analysis';
import type { DriftLabel } from '../../protocol/labels';
import { MODULE_SYMBOL } from '../../core/analysis/symbols';

export interface AnnotationNote {
  readonly kind: DecorationKind;
  readonly startLine: number;
  readonly endLine: number;
  readonly symbol?: string;
  /** One or two sentences for a person, plain words before any taxonomy code. */
  readonly message: string;
  /** The short code shown after the source: `overshoot`, `undershoot`, `drift: INPUT GATING, …`. */
  readonly code: string;
  /** Drift labels behind the note (drift notes; overshoot notes that absorbed EXTRA EDITS). */
  readonly labels: readonly DriftLabel[];
  /** Input/error contract drift (shown as information, other drift as a hint). */
  readonly iec: boolean;
  /** Drift whose every suggestion has low confidence: drawn quietly, a hint in Problems. */
  readonly low?: boolean;
  /** The decorations this note stands for (hovers look up the gold hunk of an undershoot). */
  readonly decorations: readonly Decoration[];
}

const RELATIVE = 'Relative to gold, not proof of a bug.';

/** Each drift label in a person's words: what the step's version does differently from gold's. */
export const PLAIN_DRIFT: Record<DriftLabel, string> = {
  EQUIVALENT: 'does the same as gold',
  STYLE: 'differs from gold in style only',
  ALGORITHM: 'reaches the same result another way',
  'INPUT GATING': 'checks its input differently',
  'SILENT FALLBACK': 'substitutes or coerces values differently',
  'ERROR HANDLING': 'handles or raises errors differently',
  'RETURN SHAPE': 'returns a different shape of value',
  'EXTERNAL EFFECTS': 'has different side effects',
  'EXTRA EDITS': 'changes code the gold patch leaves alone',
  INCOMPLETE: 'is left unfinished',
};

function where(symbol: string | undefined, file: string): string {
  if (symbol === undefined) return file;
  return symbol === MODULE_SYMBOL ? `top-level code of ${file}` : symbol;
}

function joinWords(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** The gold-side lines an undershoot decoration's text names ("(gold lines 12–18)"), kept verbatim. */
function goldLinesOf(d: Decoration): string {
  return /\(gold lines [^)]*\)/.exec(d.hover)?.[0] ?? '';
}

/**
 * The notes of one file: `decorations` as drawn (already filtered by the settings), `drift` the
 * analysis's suggestions (for their reasons).
 */
export function annotationNotes(
  file: string,
  decorations: readonly Decoration[],
  drift: readonly DriftSuggestion[],
): AnnotationNote[] {
  const notes: AnnotationNote[] = [];
  // Indexed once: looking these up per mark made a file's notes quadratic in its marks (a redraw
  // after every keystroke builds them again).
  const overshootSymbols = new Set<string | undefined>();
  const extraEditSymbols = new Set<string | undefined>();
  const driftBySymbol = new Map<string, Decoration[]>();
  for (const d of decorations) {
    if (d.kind === 'overshoot') overshootSymbols.add(d.symbol);
    else if (d.kind === 'drift') {
      if (d.label === 'EXTRA EDITS') extraEditSymbols.add(d.symbol);
      const key = d.symbol ?? '';
      const list = driftBySymbol.get(key);
      if (list) list.push(d);
      else driftBySymbol.set(key, [d]);
    }
  }
  const suggestions = new Map<string, DriftSuggestion>();
  for (const s of drift) {
    const key = `${s.file}\0${s.symbol}\0${s.label}`;
    if (s.file === file && !suggestions.has(key)) suggestions.set(key, s);
  }
  for (const d of decorations) {
    if (d.kind === 'drift') continue;
    const w = where(d.symbol, file);
    if (d.kind === 'overshoot') {
      const absorbed = extraEditSymbols.has(d.symbol);
      notes.push({
        kind: 'overshoot',
        startLine: d.startLine,
        endLine: d.endLine,
        ...(d.symbol !== undefined ? { symbol: d.symbol } : {}),
        message: `Not in gold: this step changes ${w}, which the gold patch leaves alone. ${RELATIVE}`,
        code: 'overshoot',
        labels: absorbed ? ['EXTRA EDITS'] : [],
        iec: false,
        decorations: [d],
      });
    } else {
      const gold = goldLinesOf(d);
      notes.push({
        kind: 'undershoot',
        startLine: d.startLine,
        endLine: d.endLine,
        ...(d.symbol !== undefined ? { symbol: d.symbol } : {}),
        message: `Missing from this step? The gold patch changes ${w}${gold ? ` ${gold}` : ''}; this step leaves it alone. ${RELATIVE}`,
        code: 'undershoot',
        labels: [],
        iec: false,
        decorations: [d],
      });
    }
  }
  for (const [symbol, list] of driftBySymbol) {
    // EXTRA EDITS beside an overshoot mark of the same symbol says what the overshoot note says.
    const shown = list.filter((d) => !(d.label === 'EXTRA EDITS' && overshootSymbols.has(d.symbol)));
    if (shown.length === 0) continue;
    const labels = [...new Set(shown.map((d) => d.label).filter((l): l is DriftLabel => l !== undefined))];
    const suggestion = suggestions.get(`${file}\0${symbol}\0${labels[0]}`);
    const w = where(symbol || undefined, file);
    const reason = suggestion?.reason ? ` (${suggestion.reason})` : '';
    const low = shown.every((d) => d.confidence === 'low');
    notes.push({
      kind: 'drift',
      startLine: shown.reduce((m, d) => Math.min(m, d.startLine), Infinity),
      endLine: shown.reduce((m, d) => Math.max(m, d.endLine), -Infinity),
      ...(symbol ? { symbol } : {}),
      message: `Differs from gold? ${w} ${joinWords(labels.map((l) => PLAIN_DRIFT[l]))}${reason}. ${low ? 'Low confidence: often the same behaviour written another way. ' : ''}A suggestion to confirm or relabel, not a verdict.`,
      code: `drift: ${labels.join(', ')}${low ? ' (low confidence)' : ''}`,
      labels,
      // Low confidence is a hint whatever the label.
      iec: !low && shown.some((d) => d.iec === true),
      low,
      decorations: shown,
    });
  }
  return notes.sort((a, b) => a.startLine - b.startLine || a.kind.localeCompare(b.kind));
}
