import type { BatchManifest, BatchRecord, BatchMode } from '../../protocol/batch';
import { wilsonInterval, type Proportion } from '../stats';
import { chainLanes, everyStepGraded, scoredUntilFirstFailure, type ManifestChain } from './chains';

/**
 * ChainSWE Tables 7 and 9: chains and bugs per dataset source (the chain's `source` field) and
 * per repository, with each prediction source's rates there: per bug and full chain under the
 * headline rule of the mode (Table 2's for Seq), and per bug with every step graded.
 */
export interface BreakdownRow {
  readonly by: 'dataset-source' | 'repository';
  /** The dataset source ("(none)" for chains that name none) or the repository. */
  readonly key: string;
  readonly chains: number;
  readonly bugs: number;
  readonly source: string;
  readonly mode: BatchMode;
  readonly perBug: Proportion;
  readonly chain: Proportion;
  readonly everyStepPerBug: Proportion;
}

export const NO_DATASET_SOURCE = '(none)';

export function breakdownRows(manifest: BatchManifest, records: readonly BatchRecord[]): BreakdownRow[] {
  const rows: BreakdownRow[] = [];
  const keyed: [BreakdownRow['by'], (c: ManifestChain) => string][] = [
    ['dataset-source', (c) => c.source ?? NO_DATASET_SOURCE],
    ['repository', (c) => c.repo],
  ];
  for (const [by, keyOf] of keyed) {
    const keys = new Map<string, ManifestChain[]>();
    for (const c of manifest.chains) keys.set(keyOf(c), [...(keys.get(keyOf(c)) ?? []), c]);
    // Sorted by chain count, as Table 9 is, then by name.
    const ordered = [...keys.entries()].sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b));
    for (const [key, chains] of ordered) {
      const ids = new Set(chains.map((c) => c.id));
      for (const source of manifest.sources)
        for (const mode of manifest.modes) {
          const lanes = chainLanes(manifest, records, source.name, mode).filter((l) => ids.has(l.chain.id));
          const graded = lanes.map(everyStepGraded);
          const everyStepPerBug = wilsonInterval(
            graded.reduce((n, g) => n + g.resolved, 0),
            graded.reduce((n, g) => n + g.judged, 0),
          );
          let perBug = everyStepPerBug;
          let chain = wilsonInterval(
            graded.filter((g) => g.complete && g.resolved === g.judged).length,
            graded.filter((g) => g.complete).length,
          );
          if (mode === 'seq') {
            const scored = lanes
              .map((l) => ({ n: l.chain.steps.length, s: scoredUntilFirstFailure(l) }))
              .filter((x): x is { n: number; s: number } => x.s !== null);
            perBug = wilsonInterval(
              scored.reduce((n, x) => n + x.s, 0),
              scored.reduce((n, x) => n + x.n, 0),
            );
            chain = wilsonInterval(scored.filter((x) => x.s === x.n).length, scored.length);
          }
          rows.push({
            by,
            key,
            chains: chains.length,
            bugs: chains.reduce((n, c) => n + c.steps.length, 0),
            source: source.name,
            mode,
            perBug,
            chain,
            everyStepPerBug,
          });
        }
    }
  }
  return rows;
}
