import type { BatchManifest, BatchRecord, ChainErrorEvidence, BatchMode } from '../../protocol/batch';
import { stepId } from './keys';

/** How far a run directory has got (docs/reference/batch.md, "Runs view"). */
export interface Counts {
  readonly total: number;
  /** Steps with a record (a verdict, or an infrastructure failure). */
  readonly done: number;
  readonly resolved: number;
  readonly infraFailures: number;
}

export interface StepSummary {
  readonly order: number;
  readonly position: number;
  readonly instanceId: string;
  /** stepId of the step (the key of its record and log paths). */
  readonly id: string;
  readonly record: BatchRecord | null;
  /** A Seq step that is a chain error tested by `chainlens evidence`: poisoned (by whom) or solvable. */
  readonly evidence: ChainErrorEvidence | null;
}

export interface ChainSummary extends Counts {
  readonly chainId: string;
  readonly steps: readonly StepSummary[];
}

/** One prediction source in one mode. */
export interface GroupSummary extends Counts {
  readonly source: string;
  readonly mode: BatchMode;
  readonly chains: readonly ChainSummary[];
}

/**
 * running: a batch works on it now; finished: every step has a record; interrupted: neither
 * (killed or cancelled part way; the same batch resumes it).
 */
export type RunState = 'running' | 'finished' | 'interrupted';

export interface RunSummary extends Counts {
  readonly state: RunState;
  readonly groups: readonly GroupSummary[];
}

function counts(records: readonly (BatchRecord | null)[]): Counts {
  let done = 0;
  let resolved = 0;
  let infraFailures = 0;
  for (const r of records) {
    if (!r) continue;
    done++;
    if (r.resolved) resolved++;
    if (r.infra_failure) infraFailures++;
  }
  return { total: records.length, done, resolved, infraFailures };
}

/**
 * The tree of a run directory: per (source, mode), per chain, per step, each with its counts, in
 * the manifest's order. Records the manifest does not name (none, in a run directory ChainLens
 * wrote) are left out.
 */
export function summarizeRun(
  manifest: BatchManifest,
  records: readonly BatchRecord[],
  running: boolean,
  evidence: readonly ChainErrorEvidence[] = [],
): RunSummary {
  const tested = new Map(
    evidence.map((e) => [stepId({ chainId: e.chain_id, source: e.source, mode: 'seq', order: e.order }), e]),
  );
  const byStep = new Map(
    records.map((r) => [stepId({ chainId: r.chain_id, source: r.source, mode: r.mode, order: r.order }), r]),
  );
  const groups: GroupSummary[] = [];
  for (const source of manifest.sources)
    for (const mode of manifest.modes) {
      const chains = manifest.chains.map((c): ChainSummary => {
        const steps = c.steps.map((s, i): StepSummary => {
          const id = stepId({ chainId: c.id, source: source.name, mode, order: s.order });
          return {
            order: s.order,
            position: i + 1,
            instanceId: s.instance_id,
            id,
            record: byStep.get(id) ?? null,
            evidence: tested.get(id) ?? null,
          };
        });
        return { chainId: c.id, steps, ...counts(steps.map((s) => s.record)) };
      });
      groups.push({ source: source.name, mode, chains, ...sum(chains) });
    }
  const all = sum(groups);
  const state: RunState = running ? 'running' : all.done === all.total ? 'finished' : 'interrupted';
  return { state, groups, ...all };
}

function sum(parts: readonly Counts[]): Counts {
  return parts.reduce(
    (a, p) => ({
      total: a.total + p.total,
      done: a.done + p.done,
      resolved: a.resolved + p.resolved,
      infraFailures: a.infraFailures + p.infraFailures,
    }),
    { total: 0, done: 0, resolved: 0, infraFailures: 0 },
  );
}

/** `3/6 done · 2 resolved` (and the infrastructure failures, when there are any). */
export function describeCounts(c: Counts): string {
  const infra = c.infraFailures ? ` · ${c.infraFailures} infra failure${c.infraFailures === 1 ? '' : 's'}` : '';
  return `${c.done}/${c.total} done · ${c.resolved} resolved${infra}`;
}
