import type { BatchManifest, BatchRecord, BatchMode } from '../../protocol/batch';
import { hasVerdict } from './exclusion';

export type ManifestChain = BatchManifest['chains'][number];

/** One chain's records of one source and mode, by position (1-based; a missing record: undefined). */
export interface ChainLane {
  readonly chain: ManifestChain;
  readonly byPosition: readonly (BatchRecord | undefined)[];
}

export function chainLanes(
  manifest: BatchManifest,
  records: readonly BatchRecord[],
  source: string,
  mode: BatchMode,
): ChainLane[] {
  const mine = new Map<string, BatchRecord>();
  for (const r of records) if (r.source === source && r.mode === mode) mine.set(`${r.chain_id}\u0000${r.position}`, r);
  return manifest.chains.map((chain) => ({
    chain,
    byPosition: chain.steps.map((_, i) => mine.get(`${chain.id}\u0000${i + 1}`)),
  }));
}

/**
 * ChainSWE's Table 2 rule for Seq ("a chain is scored until its first unresolved bug, and any
 * unscored later bug counts as unresolved"): the number of leading resolved steps, or null when
 * the chain cannot be scored, because a step before its first unresolved one has no record yet
 * or left the denominator (docs/reference/metrics.md, "Denominators").
 */
export function scoredUntilFirstFailure(lane: ChainLane): number | null {
  let resolved = 0;
  for (const r of lane.byPosition) {
    if (!r || !hasVerdict(r)) return null;
    if (!r.resolved) return resolved;
    resolved++;
  }
  return resolved;
}

/** Every step graded: resolved steps and steps with a verdict; complete when every step has one. */
export function everyStepGraded(lane: ChainLane): { resolved: number; judged: number; complete: boolean } {
  const judged = lane.byPosition.filter((r): r is BatchRecord => r !== undefined && hasVerdict(r));
  return {
    resolved: judged.filter((r) => r.resolved).length,
    judged: judged.length,
    complete: judged.length === lane.chain.steps.length,
  };
}

/** Sum of the steps' costs, when every step of the chain has a record with one. */
export function chainCost(lane: ChainLane): number | null {
  let sum = 0;
  for (const r of lane.byPosition) {
    if (!r || r.cost === null) return null;
    sum += r.cost;
  }
  return sum;
}

/** ChainSWE A.4: the largest peak input context over the chain's steps that record one. */
export function chainPeakContext(lane: ChainLane): number | null {
  const peaks = lane.byPosition.map((r) => r?.peak_context_tokens).filter((t): t is number => typeof t === 'number');
  return peaks.length ? Math.max(...peaks) : null;
}

export const mean = (xs: readonly number[]): number | null =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
