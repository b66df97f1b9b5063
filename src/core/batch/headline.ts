import type { BatchManifest, BatchRecord, BatchMode } from '../../protocol/batch';
import {
  clusterBootstrap,
  mcnemarExact,
  pairedTable,
  wilsonInterval,
  type BootstrapInterval,
  type PairedTable,
  type Proportion,
} from '../stats';
import { chainCost, chainLanes, chainPeakContext, everyStepGraded, mean, scoredUntilFirstFailure } from './chains';
import { hasVerdict } from './exclusion';

/** A rate with Wilson's interval and, beside it, the cluster bootstrap that resamples repositories. */
export interface ClusteredRate extends Proportion {
  readonly byRepository: BootstrapInterval;
}

export type ScoringRule = 'scored-until-first-unresolved' | 'every-step-graded';

/** One row of ChainSWE's Table 2: a prediction source in one mode (docs/reference/metrics.md). */
export interface HeadlineRow {
  readonly source: string;
  readonly mode: BatchMode;
  /** The rule the headline follows: Table 2's for Seq, every step graded for Oracle. */
  readonly rule: ScoringRule;
  readonly perBug: ClusteredRate;
  readonly chain: ClusteredRate;
  /** Chains the rule could not score (a step before the first unresolved one has no verdict). */
  readonly unscoredChains: number;
  /** Every step graded, whatever the mode: shown beside the headline, labelled. */
  readonly everyStep: { readonly perBug: ClusteredRate; readonly chain: ClusteredRate };
  /** Average USD per chain over the chains whose every step has a cost (Table 2 "Cost"). */
  readonly costPerChain: number | null;
  readonly chainsWithCost: number;
  /** Average over chains of the largest peak input context of its steps (Table 8), tokens. */
  readonly peakContextPerChain: number | null;
  readonly chainsWithContext: number;
  /** Seq rows: against the same source's Oracle row; null for Oracle rows. */
  readonly vsOracle: Comparison | null;
}

export interface Comparison {
  /** seq − oracle, as a fraction (negative: a drop). */
  readonly perBugAbsolute: number;
  /** (seq − oracle) / oracle, the paper's red subscript; null when Oracle's rate is 0. */
  readonly perBugRelative: number | null;
  readonly chainAbsolute: number;
  readonly chainRelative: number | null;
  /** Steps with a verdict in both modes: the paired table and the exact McNemar p-value. */
  readonly paired: PairedTable & { readonly p: number };
}

interface Counted {
  readonly repo: string;
  readonly successes: number;
  readonly total: number;
}

function clustered(items: readonly Counted[]): ClusteredRate {
  const byRepo = new Map<string, { successes: number; total: number }>();
  for (const c of items) {
    const r = byRepo.get(c.repo) ?? { successes: 0, total: 0 };
    byRepo.set(c.repo, { successes: r.successes + c.successes, total: r.total + c.total });
  }
  const s = items.reduce((n, c) => n + c.successes, 0);
  const t = items.reduce((n, c) => n + c.total, 0);
  return { ...wilsonInterval(s, t), byRepository: clusterBootstrap([...byRepo.values()]) };
}

export const relativeChange = (seq: number, oracle: number): number | null =>
  Number.isNaN(seq) || Number.isNaN(oracle) || oracle === 0 ? null : (seq - oracle) / oracle;

function row(manifest: BatchManifest, records: readonly BatchRecord[], source: string, mode: BatchMode) {
  const lanes = chainLanes(manifest, records, source, mode);
  const graded = lanes.map((l) => ({ lane: l, g: everyStepGraded(l) }));
  const everyStep = {
    perBug: clustered(graded.map(({ lane, g }) => ({ repo: lane.chain.repo, successes: g.resolved, total: g.judged }))),
    chain: clustered(
      graded
        .filter(({ g }) => g.complete)
        .map(({ lane, g }) => ({
          repo: lane.chain.repo,
          successes: g.resolved === g.judged ? 1 : 0,
          total: 1,
        })),
    ),
  };
  // Seq+Mem is Seq with the agent's memory kept (ChainSWE §4.3): scored by Seq's rule.
  const rule: ScoringRule = mode === 'oracle' ? 'every-step-graded' : 'scored-until-first-unresolved';
  let headline = everyStep;
  let unscoredChains = 0;
  if (rule === 'scored-until-first-unresolved') {
    const scored = lanes.map((l) => ({ lane: l, score: scoredUntilFirstFailure(l) }));
    const ok = scored.filter((s): s is { lane: typeof s.lane; score: number } => s.score !== null);
    unscoredChains = scored.length - ok.length;
    headline = {
      perBug: clustered(
        ok.map(({ lane, score }) => ({ repo: lane.chain.repo, successes: score, total: lane.chain.steps.length })),
      ),
      chain: clustered(
        ok.map(({ lane, score }) => ({
          repo: lane.chain.repo,
          successes: score === lane.chain.steps.length ? 1 : 0,
          total: 1,
        })),
      ),
    };
  }
  const costs = lanes.map(chainCost).filter((c): c is number => c !== null);
  const peaks = lanes.map(chainPeakContext).filter((c): c is number => c !== null);
  return {
    source,
    mode,
    rule,
    perBug: headline.perBug,
    chain: headline.chain,
    unscoredChains,
    everyStep,
    costPerChain: mean(costs),
    chainsWithCost: costs.length,
    peakContextPerChain: mean(peaks),
    chainsWithContext: peaks.length,
  };
}

/** Steps judged in both modes at the same place: (oracle resolved, seq resolved; or seq+mem's). */
export function pairedSteps(
  records: readonly BatchRecord[],
  source: string,
  mode: BatchMode = 'seq',
): [BatchRecord, BatchRecord][] {
  const key = (r: BatchRecord) => `${r.chain_id}\u0000${r.position}`;
  const oracle = new Map(
    records.filter((r) => r.source === source && r.mode === 'oracle' && hasVerdict(r)).map((r) => [key(r), r]),
  );
  return records
    .filter((r) => r.source === source && r.mode === mode && hasVerdict(r) && oracle.has(key(r)))
    .map((s) => [oracle.get(key(s))!, s]);
}

/** ChainSWE Table 2 for every source and mode of the batch, Seq rows compared with their Oracle. */
export function headlineRows(manifest: BatchManifest, records: readonly BatchRecord[]): HeadlineRow[] {
  const rows: HeadlineRow[] = [];
  for (const s of manifest.sources) {
    const oracle = manifest.modes.includes('oracle') ? row(manifest, records, s.name, 'oracle') : null;
    for (const mode of manifest.modes) {
      const r = mode === 'oracle' ? oracle! : row(manifest, records, s.name, mode);
      let vsOracle: Comparison | null = null;
      if (mode !== 'oracle' && oracle) {
        const table = pairedTable(
          pairedSteps(records, s.name, mode).map(([o, q]) => [o.resolved, q.resolved] as const),
        );
        vsOracle = {
          perBugAbsolute: r.perBug.rate - oracle.perBug.rate,
          perBugRelative: relativeChange(r.perBug.rate, oracle.perBug.rate),
          chainAbsolute: r.chain.rate - oracle.chain.rate,
          chainRelative: relativeChange(r.chain.rate, oracle.chain.rate),
          paired: { ...table, p: mcnemarExact(table.onlyA, table.onlyB) },
        };
      }
      rows.push({ ...r, vsOracle });
    }
  }
  return rows;
}
