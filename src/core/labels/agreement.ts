import { DRIFT_LABELS, type DriftGroup, type DriftLabel, type DriftLabelRecord } from '../../protocol/labels';
import { groupOf } from './taxonomy';

export interface LabelPair {
  readonly target: string;
  readonly a: DriftLabel;
  readonly b: DriftLabel;
}

export interface KappaResult {
  /** Cohen's kappa; null when chance agreement is 1 (both used one and the same label throughout). */
  readonly kappa: number | null;
  readonly observed: number;
  readonly expected: number;
  readonly n: number;
}

export interface Agreement extends KappaResult {
  readonly pairs: readonly LabelPair[];
  /** Targets only one side labelled. */
  readonly onlyA: number;
  readonly onlyB: number;
  /** confusion[a][b] = how many targets A labelled a and B labelled b. */
  readonly confusion: Record<DriftLabel, Record<DriftLabel, number>>;
  /** Kappa on the four groups (A compatible, B divergent, C scope, D failure). */
  readonly groupKappa: KappaResult;
}

/** Cohen's kappa of paired categorical ratings. */
export function cohenKappa<T extends string>(pairs: readonly (readonly [T, T])[]): KappaResult {
  const n = pairs.length;
  if (n === 0) return { kappa: null, observed: 0, expected: 0, n };
  const ca = new Map<T, number>();
  const cb = new Map<T, number>();
  let agree = 0;
  for (const [a, b] of pairs) {
    if (a === b) agree++;
    ca.set(a, (ca.get(a) ?? 0) + 1);
    cb.set(b, (cb.get(b) ?? 0) + 1);
  }
  const observed = agree / n;
  let expected = 0;
  for (const [k, x] of ca) expected += (x / n) * ((cb.get(k) ?? 0) / n);
  const kappa = expected === 1 ? null : (observed - expected) / (1 - expected);
  return { kappa, observed, expected, n };
}

/**
 * Where a record sits, labeller aside: run (when both files record runs), chain, step and
 * instance. Two runs of one instance, or two steps of one chain, are different targets.
 */
function placeKey(r: DriftLabelRecord, byRun: boolean): string {
  return [byRun ? (r.run ?? '') : '', r.chain, String(r.step), r.instance].join('\u0000');
}

const symbolKey = (r: DriftLabelRecord, byRun: boolean) => `${placeKey(r, byRun)}\u0000${r.file}\u0000${r.symbol}`;

/** A labeller's latest label per target (a later `time` overrides an earlier one). */
function latest(records: readonly DriftLabelRecord[], byRun: boolean): DriftLabelRecord[] {
  const byTarget = new Map<string, DriftLabelRecord>();
  for (const r of records) {
    const key = `${r.labeller}\u0000${
      r.symbol !== null
        ? symbolKey(r, byRun)
        : `${placeKey(r, byRun)}\u0000${r.file}\u0000@${r.range.startLine}-${r.range.endLine}`
    }`;
    const prev = byTarget.get(key);
    if (!prev || Date.parse(r.time) >= Date.parse(prev.time)) byTarget.set(key, r);
  }
  return [...byTarget.values()];
}

function overlap(x: DriftLabelRecord, y: DriftLabelRecord): number {
  return Math.min(x.range.endLine, y.range.endLine) - Math.max(x.range.startLine, y.range.startLine) + 1;
}

/** Runs are part of the target only when every record of both sides names its run. */
export function pairsByRun(aRecords: readonly DriftLabelRecord[], bRecords: readonly DriftLabelRecord[]): boolean {
  return [...aRecords, ...bRecords].every((r) => r.run !== undefined);
}

/** The target's name in pairs: `[run R step N: ]instance file symbol-or-lines`. */
function targetName(r: DriftLabelRecord, byRun: boolean, what: string): string {
  const at = byRun ? `run ${r.run} step ${r.step}: ` : r.step > 1 ? `step ${r.step}: ` : '';
  return `${at}${r.instance} ${r.file} ${what}`;
}

/**
 * Pairs two labellers' records on the targets both labelled: same run (when recorded), chain,
 * step, instance, file and symbol; records without a symbol match the other side's record at
 * the same place in the same file whose range overlaps most (each record used once).
 */
export function pairLabels(
  aRecords: readonly DriftLabelRecord[],
  bRecords: readonly DriftLabelRecord[],
): { pairs: LabelPair[]; onlyA: number; onlyB: number } {
  const byRun = pairsByRun(aRecords, bRecords);
  const a = latest(aRecords, byRun);
  const b = latest(bRecords, byRun);
  const used = new Set<DriftLabelRecord>();
  const bySymbol = new Map(b.filter((r) => r.symbol !== null).map((r) => [symbolKey(r, byRun), r]));
  const pairs: LabelPair[] = [];
  const unmatchedA: DriftLabelRecord[] = [];
  for (const r of a) {
    const m = r.symbol !== null ? bySymbol.get(symbolKey(r, byRun)) : undefined;
    if (m && !used.has(m)) {
      used.add(m);
      pairs.push({ target: targetName(r, byRun, r.symbol as string), a: r.label, b: m.label });
    } else unmatchedA.push(r);
  }
  let onlyA = 0;
  for (const r of unmatchedA) {
    let best: DriftLabelRecord | undefined;
    for (const c of b) {
      if (used.has(c) || placeKey(c, byRun) !== placeKey(r, byRun) || c.file !== r.file) continue;
      if (r.symbol !== null && c.symbol !== null) continue;
      if (overlap(r, c) > 0 && (!best || overlap(r, c) > overlap(r, best))) best = c;
    }
    if (best) {
      used.add(best);
      pairs.push({
        target: targetName(r, byRun, `${r.range.startLine}-${r.range.endLine}`),
        a: r.label,
        b: best.label,
      });
    } else onlyA++;
  }
  return { pairs, onlyA, onlyB: b.length - used.size };
}

function emptyConfusion(): Record<DriftLabel, Record<DriftLabel, number>> {
  const row = () => Object.fromEntries(DRIFT_LABELS.map((l) => [l, 0])) as Record<DriftLabel, number>;
  return Object.fromEntries(DRIFT_LABELS.map((l) => [l, row()])) as Record<DriftLabel, Record<DriftLabel, number>>;
}

/** Agreement of labeller A with labeller B (or with ChainLens's suggestions, given as records). */
export function agreement(aRecords: readonly DriftLabelRecord[], bRecords: readonly DriftLabelRecord[]): Agreement {
  const { pairs, onlyA, onlyB } = pairLabels(aRecords, bRecords);
  const confusion = emptyConfusion();
  for (const p of pairs) confusion[p.a][p.b]++;
  const k = cohenKappa(pairs.map((p) => [p.a, p.b] as const));
  const groupKappa = cohenKappa(
    pairs.map((p) => [groupOf(p.a), groupOf(p.b)] as const satisfies readonly [DriftGroup, DriftGroup]),
  );
  return { ...k, pairs, onlyA, onlyB, confusion, groupKappa };
}
