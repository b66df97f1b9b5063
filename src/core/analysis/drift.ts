import type { DriftConfidence, DriftSuggestion, EvidenceLine } from '../../protocol/analysis';
import type { DriftLabel } from '../../protocol/labels';
import { groupOf, isIec } from '../labels/taxonomy';
import { canonicalGateInputs, canonicalGates } from './driftFacts';
import { clip } from './normalize';
import type { Fact, SymbolDetail } from './symbols';

/** The versions of one symbol that drift compares (the step's against gold's). */
export interface SymbolVersions {
  readonly file: string;
  readonly symbol: string;
  /** The symbol as the step leaves it (after the step's patch, or untouched). */
  readonly step: SymbolDetail;
  /** The symbol as gold leaves it. */
  readonly gold: SymbolDetail;
  readonly touchedByStep: boolean;
  readonly touchedByGold: boolean;
  /** The step's added/removed lines inside the symbol (EXTRA EDITS evidence). */
  readonly stepChanges: readonly EvidenceLine[];
}

interface FactDiff {
  readonly stepOnly: Fact[];
  readonly goldOnly: Fact[];
}

/** Multiset difference by key: a check present twice in gold and once in the step shows once. */
export function diffFacts(step: readonly Fact[], gold: readonly Fact[]): FactDiff {
  const count = new Map<string, number>();
  for (const f of gold) count.set(f.key, (count.get(f.key) ?? 0) + 1);
  const stepOnly: Fact[] = [];
  for (const f of step) {
    const n = count.get(f.key) ?? 0;
    if (n > 0) count.set(f.key, n - 1);
    else stepOnly.push(f);
  }
  const left = new Map<string, number>();
  for (const f of step) left.set(f.key, (left.get(f.key) ?? 0) + 1);
  const goldOnly: Fact[] = [];
  for (const f of gold) {
    const n = left.get(f.key) ?? 0;
    if (n > 0) left.set(f.key, n - 1);
    else goldOnly.push(f);
  }
  return { stepOnly, goldOnly };
}

const empty = (d: FactDiff) => d.stepOnly.length === 0 && d.goldOnly.length === 0;

function evidence(v: SymbolVersions, diffs: FactDiff[]): EvidenceLine[] {
  const out: EvidenceLine[] = [];
  const seen = new Set<string>();
  // Each version's text is split once, not once per evidence line.
  let stepLines: string[] | undefined;
  let goldLines: string[] | undefined;
  const add = (side: 'step' | 'gold', detail: SymbolDetail, facts: Fact[]) => {
    for (const f of facts) {
      for (const line of f.lines) {
        const id = `${side}:${line}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const lines =
          side === 'step' ? (stepLines ??= detail.text.split('\n')) : (goldLines ??= detail.text.split('\n'));
        out.push({ side, file: v.file, line, text: (lines[line - detail.symbol.startLine] ?? '').trim() });
      }
    }
  };
  for (const d of diffs) {
    add('step', v.step, d.stepOnly);
    add('gold', v.gold, d.goldOnly);
  }
  return out;
}

/** "2 the step lacks (a; b)" from facts, keys shown without their internal prefixes. */
function describe(facts: Fact[], what: string, strip: (key: string) => string = (k) => k): string {
  if (facts.length === 0) return '';
  const shown = facts.slice(0, 2).map((f) => clip(strip(f.key), 100));
  return `${facts.length} ${what} (${shown.join('; ')}${facts.length > 2 ? '; …' : ''})`;
}

function joinParts(parts: string[]): string {
  return parts.filter((p) => p !== '').join('; ');
}

const gateText = (key: string) => key.replace(/^ => /, '').replace(/ => /, ' → ');
const inputText = (key: string) => key.replace(/^.* :: /, '');

/**
 * How sure INPUT GATING is (measured on the labelled set, docs/reference/drift.md): an early exit
 * one side has and the other lacks, or statements feeding the checks that only one side has, is
 * a difference in what is accepted (high); the same number of checks or feeding statements on
 * both sides, only worded differently, is as often the same behaviour rewritten (low).
 */
function inputGatingConfidence(gates: FactDiff, inputs: FactDiff): DriftConfidence {
  const reworded = (d: FactDiff) => d.stepOnly.length === d.goldOnly.length;
  const exitsOf = (facts: Fact[]) =>
    facts
      .map((f) => f.key.slice(f.key.lastIndexOf(' => ')))
      .sort()
      .join('|');
  const gatesReworded = reworded(gates) && exitsOf(gates.stepOnly) === exitsOf(gates.goldOnly);
  if (!empty(gates) && !gatesReworded) return 'high';
  if (!empty(inputs) && !reworded(inputs)) return 'high';
  return 'low';
}

interface Draft {
  readonly label: DriftLabel;
  readonly reason: string;
  readonly evidence: EvidenceLine[];
  readonly confidence?: DriftConfidence;
}

function finish(v: SymbolVersions, out: readonly Draft[]): DriftSuggestion[] {
  const { step } = v;
  return out.map((s, i) => ({
    file: v.file,
    symbol: v.symbol,
    label: s.label,
    group: groupOf(s.label),
    iec: isIec(s.label),
    primary: i === 0,
    reason: s.reason,
    evidence: s.evidence,
    range: { startLine: step.symbol.startLine, endLine: step.symbol.endLine },
    source: 'suggested' as const,
    // A symbol the step leaves alone differs from gold by gold's change alone: undershoot says that.
    confidence: v.touchedByStep ? (s.confidence ?? 'high') : 'low',
  }));
}

/**
 * Heuristic drift suggestions for one symbol: where the step's version departs from gold's in
 * checks, fallbacks, error handling, return shapes, effects, stubs or scope. Suggestions for a
 * person to confirm, never verdicts; the first one is the suggested primary label.
 */
export function suggestDrift(v: SymbolVersions): DriftSuggestion[] {
  const out: Draft[] = [];
  const { step, gold } = v;

  if (step.notImplemented && !gold.notImplemented) {
    // A body that is only a not-implemented statement lacks all of gold's behaviour for one
    // reason: it is unfinished. Its missing checks and returns are not drift of their own, and
    // counting them inflated IEC, CodeThread's key predictor (docs/reference/drift.md).
    const markers = diffFacts(step.stubs, gold.stubs).stepOnly;
    return finish(v, [
      {
        label: 'INCOMPLETE',
        reason: `the step's ${v.symbol} is only a not-implemented statement where gold's is implemented: ${describe(markers, 'stub marker(s)', (k) => k.replace(/^stub: /, ''))}`,
        evidence: evidence(v, [{ stepOnly: markers, goldOnly: [] }]),
      },
    ]);
  }

  if (v.touchedByStep && !v.touchedByGold) {
    const cosmetic = step.signature === gold.signature;
    out.push({
      label: 'EXTRA EDITS',
      ...(cosmetic ? { confidence: 'low' as const } : {}),
      reason: `the step changes ${v.symbol}, which gold leaves alone${cosmetic ? ' (comments/layout only)' : ''}`,
      evidence: [...v.stepChanges].slice(0, 8),
    });
  }

  const stubs = diffFacts(step.stubs, gold.stubs);
  if (stubs.stepOnly.length > 0) {
    out.push({
      label: 'INCOMPLETE',
      reason: `the step's version is left unfinished where gold's is not: ${describe(stubs.stepOnly, 'stub marker(s)', (k) => k.replace(/^(stub|todo): /, ''))}`,
      evidence: evidence(v, [{ stepOnly: stubs.stepOnly, goldOnly: [] }]),
    });
  }

  // Behaviour-bearing facts (driftFacts.ts): checks in another order, a flag beside the checked
  // value or a comparison turned round are the same behaviour and compare equal.
  const gates = diffFacts(canonicalGates(step.gates), canonicalGates(gold.gates));
  const inputs = diffFacts(
    canonicalGateInputs(step.gateInputs, step.gates),
    canonicalGateInputs(gold.gateInputs, gold.gates),
  );
  if (!empty(gates) || !empty(inputs)) {
    out.push({
      label: 'INPUT GATING',
      confidence: inputGatingConfidence(gates, inputs),
      reason: joinParts([
        describe(gates.goldOnly, 'early exit(s) in gold that the step lacks', gateText),
        describe(gates.stepOnly, 'early exit(s) the step adds', gateText),
        inputs.goldOnly.length + inputs.stepOnly.length > 0
          ? `what the checks test differs: gold ${describe(inputs.goldOnly, 'statement(s)', inputText) || 'nothing else'} vs step ${describe(inputs.stepOnly, 'statement(s)', inputText) || 'nothing else'}`
          : '',
      ]),
      evidence: evidence(v, [gates, inputs]),
    });
  }

  const handlers = diffFacts(step.handlers, gold.handlers);
  const raised = diffFacts(step.raised, gold.raised);
  if (!empty(handlers) || !empty(raised)) {
    out.push({
      label: 'ERROR HANDLING',
      reason: joinParts([
        describe(handlers.goldOnly, 'handler(s) only in gold'),
        describe(handlers.stepOnly, 'handler(s) only in the step'),
        describe(raised.goldOnly, 'exception type(s) only gold raises', (k) => k.replace(/^raises /, '')),
        describe(raised.stepOnly, 'exception type(s) only the step raises', (k) => k.replace(/^raises /, '')),
      ]),
      evidence: evidence(v, [handlers, raised]),
    });
  }

  const fallbacks = diffFacts(step.fallbacks, gold.fallbacks);
  if (!empty(fallbacks)) {
    out.push({
      label: 'SILENT FALLBACK',
      reason: joinParts([
        describe(fallbacks.stepOnly, 'substitution(s)/coercion(s) only in the step'),
        describe(fallbacks.goldOnly, 'only in gold'),
      ]),
      evidence: evidence(v, [fallbacks]),
    });
  }

  const returns = diffFacts(step.returns, gold.returns);
  if (!empty(returns)) {
    out.push({
      label: 'RETURN SHAPE',
      reason: `returns ${step.returns.map((f) => f.key).join(' | ') || 'nothing'} in the step vs ${gold.returns.map((f) => f.key).join(' | ') || 'nothing'} in gold`,
      evidence: evidence(v, [returns]),
    });
  }

  const effects = diffFacts(step.effects, gold.effects);
  if (!empty(effects)) {
    out.push({
      label: 'EXTERNAL EFFECTS',
      reason: joinParts([
        describe(effects.stepOnly, 'effect(s) only in the step'),
        describe(effects.goldOnly, 'effect(s) only in gold'),
      ]),
      evidence: evidence(v, [effects]),
    });
  }

  if (out.length === 0 && v.touchedByStep && v.touchedByGold && step.signature === gold.signature) {
    out.push({
      label: 'EQUIVALENT',
      reason:
        step.text === gold.text
          ? `the step's ${v.symbol} is identical to gold's`
          : `the step's ${v.symbol} differs from gold's only in comments, docstrings or layout`,
      evidence: [],
    });
  }

  return finish(v, out);
}
