import type { BatchRecord } from '../../protocol/batch';
import { fingerprint, type FailureFingerprint } from '../metrics/compareRuns';
import { wilsonInterval, type Proportion } from '../stats';
import type { TraceEntry } from './trace';

/** Which earlier miscalibration a chain error is put down to (ChainSWE §5.3, Fig. 4a). */
export type ChainErrorCause = 'overshoot' | 'undershoot' | 'other';

/**
 * The cause a trace points to: the kind of the entries on a symbol the failing step's gold must
 * change (the likeliest cause), else of all entries, when they are of one kind; `other` when the
 * trace is empty or mixed. Like the paper's reading of shared files, this is relative to gold,
 * not a test of the state: docs/reference/metrics.md says where it can be wrong.
 */
export function causeOf(trace: readonly TraceEntry[]): ChainErrorCause {
  const lead = trace.some((t) => t.sameSymbol) ? trace.filter((t) => t.sameSymbol) : trace;
  const kinds = new Set(lead.map((t) => t.kind));
  return kinds.size === 1 ? [...kinds][0] : 'other';
}

/** Fig. 4a-b for one source: how many downstream Seq failures are chain errors, why, and how they show. */
export interface ChainErrorShare {
  readonly source: string;
  /** Position 0: all downstream positions (>= 2) together; else one position. */
  readonly position: number;
  /** successes: chain errors; total: Seq failures at this position with an Oracle verdict there. */
  readonly share: Proportion;
  /** Seq failures here with no Oracle verdict to compare with (left out of `share`). */
  readonly unpaired: number;
  readonly causes: Readonly<Record<ChainErrorCause, number>>;
  /** How the chain errors show in the harness (Fig. 4b): their Seq failure fingerprints. */
  readonly fingerprints: Readonly<Record<FailureFingerprint, number>>;
}

export function chainErrorShares(
  source: string,
  pairs: readonly (readonly [BatchRecord, BatchRecord])[],
  seqFailures: readonly BatchRecord[],
  causes: ReadonlyMap<string, ChainErrorCause>,
): ChainErrorShare[] {
  const positions = [...new Set(seqFailures.map((r) => r.position))].sort((a, b) => a - b);
  const rows: ChainErrorShare[] = [];
  for (const position of [0, ...positions]) {
    const at = (p: number) => position === 0 || p === position;
    const failures = pairs.filter(([, s]) => at(s.position) && s.position >= 2 && !s.resolved);
    const errors = failures.filter(([o]) => o.resolved);
    const split: Record<ChainErrorCause, number> = { overshoot: 0, undershoot: 0, other: 0 };
    const shown: Record<FailureFingerprint, number> = {
      'broke-working-code': 0,
      'left-bug-unfixed': 0,
      'no-usable-patch': 0,
    };
    for (const [, s] of errors) {
      split[causes.get(`${s.chain_id}\u0000${s.position}`) ?? 'other']++;
      shown[fingerprint(s)!]++;
    }
    rows.push({
      source,
      position,
      share: wilsonInterval(errors.length, failures.length),
      unpaired: seqFailures.filter((r) => at(r.position)).length - failures.length,
      causes: split,
      fingerprints: shown,
    });
  }
  return rows;
}
