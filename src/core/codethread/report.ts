import type { Condition } from '../../protocol/codethread';
import { mcnemarExact, pairedTable, wilsonInterval, type Proportion } from '../stats';

/** What happened to one symbol an agent's PR1 drifted on (relative to the human PR1) by PR2. */
export interface DriftFate {
  readonly file: string;
  readonly symbol: string;
  /** The drift labels suggested on PR1 (docs/reference/metrics.md's taxonomy). */
  readonly labels: readonly string[];
  /** kept: PR2 left the symbol as PR1 wrote it; persisted: PR2 edited it and the drift is still suggested; repaired: it is not. */
  readonly fate: 'kept' | 'persisted' | 'repaired';
}

/** One evaluated run of a CodeThread task. */
export interface CodeThreadRun {
  readonly dir: string;
  readonly instanceId: string;
  readonly condition: Condition;
  /** The PR1 filter (step 1's evaluation); null when step 1 was not evaluated. */
  readonly filterPassed: boolean | null;
  /** PR2 resolved (step 2's evaluation); null when step 2 was not evaluated. */
  readonly pr2Resolved: boolean | null;
  /** For a run whose PR1 an agent wrote: its drifted symbols and their fate in PR2. */
  readonly drift?: readonly DriftFate[];
}

export interface ConditionRate {
  readonly condition: Condition;
  /** Runs of this condition given, and how many passed the filter with PR2 evaluated. */
  readonly runs: number;
  readonly usable: number;
  /** PR2 resolve rate on the shared instances (95% Wilson interval). */
  readonly shared: Proportion;
}

export interface PairComparison {
  readonly a: Condition;
  readonly b: Condition;
  readonly n: number;
  readonly both: number;
  /** Resolved under a only / under b only: the discordant pairs. */
  readonly onlyA: number;
  readonly onlyB: number;
  readonly neither: number;
  readonly onlyAInstances: readonly string[];
  readonly onlyBInstances: readonly string[];
  /** Exact two-sided McNemar p-value. */
  readonly p: number;
}

export interface DriftSummary {
  readonly condition: Condition;
  readonly runs: number;
  readonly drifted: number;
  readonly kept: number;
  readonly persisted: number;
  readonly repaired: number;
  readonly symbols: readonly (DriftFate & { readonly instanceId: string })[];
}

export interface CodeThreadReport {
  /** Instances where every condition given has a run that passed the PR1 filter and has PR2 graded. */
  readonly sharedInstances: readonly string[];
  readonly rates: readonly ConditionRate[];
  readonly pairs: readonly PairComparison[];
  readonly drift: readonly DriftSummary[];
  /** Runs left out, and why (filter failed, a step not evaluated, the same instance and condition twice). */
  readonly excluded: readonly { readonly dir: string; readonly why: string }[];
}

const ORDER: Condition[] = ['HH', 'HA', 'AA', 'AH'];

/**
 * The CodeThread analysis across conditions (docs/reference/codethread.md). As in the study,
 * conditions are compared on the instances they share: those where each condition's PR1 passed
 * the filter and PR2 was graded. HA vs AA (and AH vs AA) are paired by instance: the discordant
 * pairs and an exact McNemar test.
 */
export function codeThreadAnalysis(runs: readonly CodeThreadRun[]): CodeThreadReport {
  const excluded: { dir: string; why: string }[] = [];
  const usable = new Map<Condition, Map<string, CodeThreadRun>>();
  for (const run of runs) {
    if (run.filterPassed === null || run.pr2Resolved === null) {
      excluded.push({ dir: run.dir, why: `step ${run.filterPassed === null ? 1 : 2} was not evaluated` });
      continue;
    }
    if (!run.filterPassed) {
      excluded.push({ dir: run.dir, why: 'PR1 did not pass the filter' });
      continue;
    }
    const byInstance = usable.get(run.condition) ?? new Map<string, CodeThreadRun>();
    usable.set(run.condition, byInstance);
    if (byInstance.has(run.instanceId)) {
      excluded.push({
        dir: run.dir,
        why: `a second ${run.condition} run of ${run.instanceId} (the first given, ${byInstance.get(run.instanceId)!.dir}, counts)`,
      });
      continue;
    }
    byInstance.set(run.instanceId, run);
  }
  const present = ORDER.filter((c) => runs.some((r) => r.condition === c));
  const sharedInstances = [...(usable.get(present[0])?.keys() ?? [])]
    .filter((id) => present.every((c) => usable.get(c)?.has(id)))
    .sort();
  const rates = present.map((condition) => {
    const resolved = sharedInstances.filter((id) => usable.get(condition)!.get(id)!.pr2Resolved).length;
    return {
      condition,
      runs: runs.filter((r) => r.condition === condition).length,
      usable: usable.get(condition)?.size ?? 0,
      shared: wilsonInterval(resolved, sharedInstances.length),
    };
  });
  const pairs: PairComparison[] = [];
  for (const [a, b] of [
    ['HA', 'AA'],
    ['AH', 'AA'],
  ] as const) {
    const ra = usable.get(a);
    const rb = usable.get(b);
    if (!ra || !rb) continue;
    const ids = [...ra.keys()].filter((id) => rb.has(id)).sort();
    const outcomes = ids.map((id) => [ra.get(id)!.pr2Resolved!, rb.get(id)!.pr2Resolved!] as const);
    const t = pairedTable(outcomes);
    pairs.push({
      a,
      b,
      n: ids.length,
      ...t,
      onlyAInstances: ids.filter((_, i) => outcomes[i][0] && !outcomes[i][1]),
      onlyBInstances: ids.filter((_, i) => !outcomes[i][0] && outcomes[i][1]),
      p: mcnemarExact(t.onlyA, t.onlyB),
    });
  }
  const drift: DriftSummary[] = [];
  for (const condition of present) {
    const withDrift = runs.filter((r) => r.condition === condition && r.drift);
    if (!withDrift.length) continue;
    const symbols = withDrift.flatMap((r) => r.drift!.map((d) => ({ ...d, instanceId: r.instanceId })));
    drift.push({
      condition,
      runs: withDrift.length,
      drifted: withDrift.filter((r) => r.drift!.length > 0).length,
      kept: symbols.filter((s) => s.fate === 'kept').length,
      persisted: symbols.filter((s) => s.fate === 'persisted').length,
      repaired: symbols.filter((s) => s.fate === 'repaired').length,
      symbols,
    });
  }
  return { sharedInstances, rates, pairs, drift, excluded };
}
