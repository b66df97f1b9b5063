// Precision and recall of the drift heuristics per label on the labelled set (labelledSet.ts).
import { analyzeStep } from '../../../../src/core/analysis/analyzeStep';
import { parsePatch } from '../../../../src/core/patch/parse';
import type { DriftSuggestion } from '../../../../src/protocol/analysis';
import type { DriftLabel } from '../../../../src/protocol/labels';
import { diffOf, symbols } from '../helpers';
import type { LabelledCase } from './labelledSet';

export interface LabelScore {
  tp: number;
  fp: number;
  fn: number;
}

export interface Measurement {
  readonly perLabel: Map<DriftLabel, LabelScore>;
  /** Every suggestion made, with whether a person gave that label (for reading the misses). */
  readonly suggestions: { case: string; symbol: string; label: DriftLabel; correct: boolean; confidence?: string }[];
  readonly missed: { case: string; symbol: string; label: DriftLabel }[];
}

export async function suggestionsOf(c: LabelledCase): Promise<DriftSuggestion[]> {
  const analysis = await analyzeStep({
    stepPatch: parsePatch(c.files.map((f) => diffOf(f.path, f.base, f.step)).join(''), 'step'),
    goldPatch: parsePatch(c.files.map((f) => diffOf(f.path, f.base, f.gold)).join(''), 'gold'),
    readFile: async (p) => c.files.find((f) => f.path === p)?.base,
    symbols,
  });
  // EQUIVALENT says "no drift"; the measurement counts what claims drift.
  return analysis.drift.filter((d) => d.label !== 'EQUIVALENT');
}

/** `shown`: which suggestions count (all of them, or only those drawn at full strength). */
export async function measure(
  cases: readonly LabelledCase[],
  shown: (s: DriftSuggestion) => boolean = () => true,
): Promise<Measurement> {
  const perLabel = new Map<DriftLabel, LabelScore>();
  const score = (l: DriftLabel) => {
    let s = perLabel.get(l);
    if (!s) perLabel.set(l, (s = { tp: 0, fp: 0, fn: 0 }));
    return s;
  };
  const suggestions: Measurement['suggestions'] = [];
  const missed: Measurement['missed'] = [];
  for (const c of cases) {
    const drift = (await suggestionsOf(c)).filter(shown);
    const symbolsSeen = new Set([...Object.keys(c.expected), ...drift.map((d) => d.symbol)]);
    for (const symbol of symbolsSeen) {
      const expected = new Set(c.expected[symbol] ?? []);
      const predicted = new Set(drift.filter((d) => d.symbol === symbol).map((d) => d.label));
      for (const d of drift.filter((x) => x.symbol === symbol))
        suggestions.push({
          case: c.name,
          symbol,
          label: d.label,
          correct: expected.has(d.label),
          ...(d.confidence ? { confidence: d.confidence } : {}),
        });
      for (const l of predicted) {
        if (expected.has(l)) score(l).tp++;
        else score(l).fp++;
      }
      for (const l of expected)
        if (!predicted.has(l)) {
          score(l).fn++;
          missed.push({ case: c.name, symbol, label: l });
        }
    }
  }
  return { perLabel, suggestions, missed };
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${Math.round((100 * n) / d)} %`);

/** The table the README shows. */
export function scoreTable(m: Measurement): string {
  const rows = [...m.perLabel.entries()].sort(([a], [b]) => a.localeCompare(b));
  return [
    '| label | suggested | right | missed | precision | recall |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      ([l, s]) =>
        `| ${l} | ${s.tp + s.fp} | ${s.tp} | ${s.fn} | ${pct(s.tp, s.tp + s.fp)} | ${pct(s.tp, s.tp + s.fn)} |`,
    ),
  ].join('\n');
}
