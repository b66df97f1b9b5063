import type { BatchManifest, BatchRecord, BatchMode } from '../../protocol/batch';
import { wilsonInterval, type Proportion } from '../stats';
import { chainLanes, scoredUntilFirstFailure } from './chains';
import { hasVerdict } from './exclusion';
import { relativeChange } from './headline';

/**
 * One cell of ChainSWE's Tables 3-4: the resolve rate at one position over the chains of one
 * length (the paper uses its 97 length-3 chains, because the three longer ones are too few).
 */
export interface LengthPositionRow {
  readonly source: string;
  readonly mode: BatchMode;
  readonly length: number;
  /** Chains of this length in the batch. */
  readonly chains: number;
  readonly position: number;
  /** Every step graded: steps at this position with a verdict. */
  readonly everyStep: Proportion;
  /** Table 2's rule (Seq): resolved = the chain's first `position` steps all resolved; Oracle: as everyStep. */
  readonly scored: Proportion;
  /** (seq − oracle) / oracle on everyStep at this length and position; null for Oracle rows. */
  readonly relative: number | null;
  readonly absolute: number | null;
}

export function lengthPositionRows(manifest: BatchManifest, records: readonly BatchRecord[]): LengthPositionRow[] {
  const lengths = [...new Set(manifest.chains.map((c) => c.steps.length))].sort((a, b) => a - b);
  const rows: LengthPositionRow[] = [];
  for (const source of manifest.sources)
    for (const length of lengths) {
      const cells = new Map<string, { everyStep: Proportion; scored: Proportion }>();
      for (const mode of manifest.modes) {
        const lanes = chainLanes(manifest, records, source.name, mode).filter((l) => l.chain.steps.length === length);
        for (let position = 1; position <= length; position++) {
          const judged = lanes
            .map((l) => l.byPosition[position - 1])
            .filter((r): r is BatchRecord => r !== undefined && hasVerdict(r));
          const everyStep = wilsonInterval(judged.filter((r) => r.resolved).length, judged.length);
          let scored = everyStep;
          if (mode === 'seq') {
            const scores = lanes.map(scoredUntilFirstFailure).filter((s): s is number => s !== null);
            scored = wilsonInterval(scores.filter((s) => s >= position).length, scores.length);
          }
          cells.set(`${mode}/${position}`, { everyStep, scored });
        }
      }
      for (const mode of manifest.modes)
        for (let position = 1; position <= length; position++) {
          const c = cells.get(`${mode}/${position}`)!;
          const o = mode === 'oracle' ? undefined : cells.get(`oracle/${position}`);
          rows.push({
            source: source.name,
            mode,
            length,
            chains: manifest.chains.filter((ch) => ch.steps.length === length).length,
            position,
            ...c,
            relative: o ? relativeChange(c.everyStep.rate, o.everyStep.rate) : null,
            absolute:
              o && !Number.isNaN(o.everyStep.rate) && !Number.isNaN(c.everyStep.rate)
                ? c.everyStep.rate - o.everyStep.rate
                : null,
          });
        }
    }
  return rows;
}
