import type { BatchManifest, BatchRecord, ChainErrorEvidence, BatchMode } from '../../protocol/batch';
import { fingerprint, type FailureFingerprint } from '../metrics/compareRuns';
import { wilsonInterval, type Proportion } from '../stats';
import { breakdownRows, type BreakdownRow } from './breakdowns';
import { causeOf, chainErrorShares, type ChainErrorCause, type ChainErrorShare } from './chainErrorShare';
import { exclusionCounts, hasVerdict, type ExclusionCount } from './exclusion';
import { headlineRows, pairedSteps, relativeChange, type HeadlineRow } from './headline';
import { stepId } from './keys';
import { lengthPositionRows, type LengthPositionRow } from './positionTables';
import { traceChainError, type TraceEntry } from './trace';
import { flakyTestsOf, verdictUnstable } from './repeats';

/** A rate with its Wilson 95% interval and the records behind it (stepId keys, for drill-down). */
export interface Rate extends Proportion {
  readonly steps: readonly string[];
}

export interface PositionRate extends Rate {
  readonly position: number;
}

/** One prediction source in one mode (docs/reference/batch.md, "Report"). */
export interface GroupReport {
  readonly source: string;
  readonly mode: BatchMode;
  /** Steps with a verdict, every step graded (exclusion.ts says which records have none). */
  readonly steps: Rate;
  /** Chains whose every step has a verdict; successes: every step resolved. */
  readonly fullChain: Rate;
  readonly byPosition: readonly PositionRate[];
  readonly fingerprints: Readonly<Record<FailureFingerprint, number>>;
  /** Records left out of every denominator, all reasons together. */
  readonly infraFailures: number;
  readonly exclusions: readonly ExclusionCount[];
}

/** Oracle vs Seq at one position, over the chains with a verdict in both modes there. */
export interface DropRow {
  readonly source: string;
  readonly position: number;
  readonly pairs: number;
  readonly oracle: Proportion;
  readonly seq: Proportion;
  /** oracle rate − seq rate on those pairs. */
  readonly drop: number;
  /** (seq rate − oracle rate) / oracle rate, the paper's relative change; null when Oracle's is 0. */
  readonly relative: number | null;
}

export interface ChainErrorRow {
  readonly source: string;
  readonly chainId: string;
  readonly position: number;
  readonly order: number;
  readonly instanceId: string;
  readonly fingerprint: FailureFingerprint;
  /** Earlier Seq steps' overshoot/undershoot in files (symbols) this step touches; empty: untraced. */
  readonly trace: readonly TraceEntry[];
  /** What the evidence's culprit hunks are, when they are of one kind; else what the trace points to (causeOf). */
  readonly cause: ChainErrorCause;
  readonly causeFrom: 'evidence' | 'trace';
  /** `chainlens evidence`: gold k on the Seq start state, and the culprits found by test; null: not gathered. */
  readonly evidence: Pick<ChainErrorEvidence, 'verdict' | 'culprits'> | null;
  readonly steps: readonly string[];
  /**
   * `--repeats N` (repeats.ts): tests of the Oracle or the Seq step whose result changed between
   * identical runs, and whether either verdict itself changed; a chain error is only one if stable.
   */
  readonly flakyTests: readonly string[];
  readonly unstable: boolean;
}

/** A step evaluated with `--repeats N` whose tests or verdict changed between identical runs. */
export interface FlakyStepRow {
  readonly source: string;
  readonly mode: BatchMode;
  readonly chainId: string;
  readonly position: number;
  readonly instanceId: string;
  /** Runs that gave a verdict, and how many of them resolved. */
  readonly runs: number;
  readonly resolved: number;
  readonly flakyTests: readonly string[];
  /** A gold source's step: the chain's own answer does not resolve it every time. */
  readonly gold: boolean;
}

export interface CostRow {
  readonly source: string;
  readonly chainId: string | null;
  readonly steps: number;
  readonly cost: number;
}

/** A table computed from the records by a dataset-specific aggregate (BatchAggregate). */
export interface AggregateTable {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | null)[])[];
}

/**
 * A per-dataset aggregate (EvoScore for SWE-CI, HA vs AA for CodeThread, ...): computed from the
 * manifest and records like the built-in figures and shown after them. Returns null when the
 * dataset is not one it applies to.
 */
export interface BatchAggregate {
  readonly id: string;
  compute(manifest: BatchManifest, records: readonly BatchRecord[]): AggregateTable | null;
}

export interface BatchReport {
  readonly chains: number;
  readonly expectedSteps: number;
  readonly recordedSteps: number;
  /** Records left out of every denominator, by reason (docs/reference/metrics.md, "Denominators"). */
  readonly excluded: readonly ExclusionCount[];
  /** ChainSWE Table 2: Table 2's scoring rule as the headline, every step graded beside it. */
  readonly headline: readonly HeadlineRow[];
  readonly groups: readonly GroupReport[];
  readonly drops: readonly DropRow[];
  /**
   * Seq-to-Seq+Mem at each position, for agent sources run in both (ChainSWE §4.3): in each row,
   * `oracle` holds Seq's rate and `seq` Seq+Mem's; `drop` = Seq − Seq+Mem.
   */
  readonly memoryDrops: readonly DropRow[];
  readonly chainErrors: readonly ChainErrorRow[];
  /** ChainSWE §5.3, Fig. 4a: chain errors among downstream Seq failures, by position, by cause. */
  readonly chainErrorShares: readonly ChainErrorShare[];
  /** ChainSWE Tables 3-4: rates by position over the chains of each length. */
  readonly lengthPositions: readonly LengthPositionRow[];
  /** ChainSWE Tables 7 and 9: by dataset source and by repository. */
  readonly breakdowns: readonly BreakdownRow[];
  readonly costs: readonly CostRow[];
  /** Evaluations of each graded step (`--repeats N`; 1: the harness's single run). */
  readonly repeats: number;
  readonly flakySteps: readonly FlakyStepRow[];
  readonly extra: Readonly<Record<string, AggregateTable>>;
}

function rate(records: readonly BatchRecord[], success: (r: BatchRecord) => boolean): Rate {
  const p = wilsonInterval(records.filter(success).length, records.length);
  return {
    ...p,
    steps: records.map((r) => stepId({ chainId: r.chain_id, source: r.source, mode: r.mode, order: r.order })),
  };
}

const idOf = (r: BatchRecord) => stepId({ chainId: r.chain_id, source: r.source, mode: r.mode, order: r.order });

/** Every figure of `chainlens report` from a run directory's manifest and records. */
export function buildBatchReport(
  manifest: BatchManifest,
  records: readonly BatchRecord[],
  aggregates: readonly BatchAggregate[] = DEFAULT_AGGREGATES,
  evidence: readonly ChainErrorEvidence[] = [],
): BatchReport {
  const stepsPerChain = new Map(manifest.chains.map((c) => [c.id, c.steps.length]));
  const groups: GroupReport[] = [];
  for (const source of manifest.sources)
    for (const mode of manifest.modes) groups.push(group(source.name, mode, records, stepsPerChain));
  const drops = manifest.sources.flatMap((s) => dropRows(s.name, records));
  const memoryDrops = manifest.modes.includes('seq+mem')
    ? manifest.sources.flatMap((s) => dropRows(s.name, records, 'seq', 'seq+mem'))
    : [];
  const chainErrors = manifest.sources.flatMap((s) => chainErrorRows(s.name, records, evidence));
  const shares = manifest.sources.flatMap((s) => {
    const causes = new Map(
      chainErrors.filter((e) => e.source === s.name).map((e) => [`${e.chainId}\u0000${e.position}`, e.cause]),
    );
    const seqFailures = records.filter(
      (r) => r.source === s.name && r.mode === 'seq' && r.position >= 2 && hasVerdict(r) && !r.resolved,
    );
    return seqFailures.length ? chainErrorShares(s.name, pairedSteps(records, s.name), seqFailures, causes) : [];
  });
  const extra: Record<string, AggregateTable> = {};
  for (const a of aggregates) {
    const table = a.compute(manifest, records);
    if (table) extra[a.id] = table;
  }
  return {
    chains: manifest.chains.length,
    expectedSteps:
      manifest.chains.reduce((n, c) => n + c.steps.length, 0) * manifest.sources.length * manifest.modes.length,
    recordedSteps: records.length,
    excluded: exclusionCounts(records),
    headline: headlineRows(manifest, records),
    groups,
    drops,
    memoryDrops,
    chainErrors,
    chainErrorShares: shares,
    lengthPositions: lengthPositionRows(manifest, records),
    breakdowns: breakdownRows(manifest, records),
    costs: costRows(records),
    repeats: manifest.options.repeats ?? 1,
    flakySteps: flakyStepRows(manifest, records),
    extra,
  };
}

function flakyStepRows(manifest: BatchManifest, records: readonly BatchRecord[]): FlakyStepRow[] {
  const gold = new Set(manifest.sources.filter((s) => s.kind === 'gold').map((s) => s.name));
  return records
    .filter((r) => r.repeats && (r.repeats.flaky_tests.length > 0 || verdictUnstable(r)))
    .map((r) => ({
      source: r.source,
      mode: r.mode,
      chainId: r.chain_id,
      position: r.position,
      instanceId: r.instance_id,
      runs: r.repeats!.runs,
      resolved: r.repeats!.resolved,
      flakyTests: r.repeats!.flaky_tests,
      gold: gold.has(r.source),
    }))
    .sort(
      (a, b) =>
        a.source.localeCompare(b.source) ||
        a.chainId.localeCompare(b.chainId) ||
        a.position - b.position ||
        a.mode.localeCompare(b.mode),
    );
}

function group(
  source: string,
  mode: BatchMode,
  all: readonly BatchRecord[],
  stepsPerChain: Map<string, number>,
): GroupReport {
  const mine = all.filter((r) => r.source === source && r.mode === mode);
  const judged = mine.filter(hasVerdict);
  const byChain = new Map<string, BatchRecord[]>();
  for (const r of judged) byChain.set(r.chain_id, [...(byChain.get(r.chain_id) ?? []), r]);
  const complete = [...byChain.entries()].filter(([id, rs]) => rs.length === stepsPerChain.get(id));
  const full = wilsonInterval(complete.filter(([, rs]) => rs.every((r) => r.resolved)).length, complete.length);
  const positions = [...new Set(judged.map((r) => r.position))].sort((a, b) => a - b);
  const fingerprints: Record<FailureFingerprint, number> = {
    'broke-working-code': 0,
    'left-bug-unfixed': 0,
    'no-usable-patch': 0,
  };
  for (const r of judged) {
    const f = fingerprint(r);
    if (f) fingerprints[f]++;
  }
  return {
    source,
    mode,
    steps: rate(judged, (r) => r.resolved),
    fullChain: { ...full, steps: complete.flatMap(([, rs]) => rs.map(idOf)) },
    byPosition: positions.map((position) => ({
      position,
      ...rate(
        judged.filter((r) => r.position === position),
        (r) => r.resolved,
      ),
    })),
    fingerprints,
    infraFailures: mine.length - judged.length,
    exclusions: exclusionCounts(mine),
  };
}

/** Records of one source and mode by `${chain}\u0000${position}`. */
function byPlace(records: readonly BatchRecord[], source: string, mode: BatchMode): Map<string, BatchRecord> {
  return new Map(
    records
      .filter((r) => r.source === source && r.mode === mode && hasVerdict(r))
      .map((r) => [`${r.chain_id}\u0000${r.position}`, r]),
  );
}

/** `from` against `to` at each position, over the places judged in both (Oracle to Seq by default). */
function dropRows(
  source: string,
  records: readonly BatchRecord[],
  from: BatchMode = 'oracle',
  to: BatchMode = 'seq',
): DropRow[] {
  const oracle = byPlace(records, source, from);
  const seq = byPlace(records, source, to);
  const byPosition = new Map<number, [BatchRecord, BatchRecord][]>();
  for (const [place, o] of oracle) {
    const s = seq.get(place);
    if (s) byPosition.set(o.position, [...(byPosition.get(o.position) ?? []), [o, s]]);
  }
  return [...byPosition.entries()]
    .sort(([a], [b]) => a - b)
    .map(([position, pairs]) => {
      const o = wilsonInterval(pairs.filter(([x]) => x.resolved).length, pairs.length);
      const s = wilsonInterval(pairs.filter(([, y]) => y.resolved).length, pairs.length);
      return {
        source,
        position,
        pairs: pairs.length,
        oracle: o,
        seq: s,
        drop: o.rate - s.rate,
        relative: relativeChange(s.rate, o.rate),
      };
    });
}

/**
 * Resolved under Oracle, unresolved under Seq, at position 2 or later (docs/reference/metrics.md):
 * position 1 starts at base_commit in both modes, so a difference there is never a chain error.
 */
function chainErrorRows(
  source: string,
  records: readonly BatchRecord[],
  evidence: readonly ChainErrorEvidence[],
): ChainErrorRow[] {
  const oracle = byPlace(records, source, 'oracle');
  const seq = byPlace(records, source, 'seq');
  const rows: ChainErrorRow[] = [];
  for (const [place, s] of seq) {
    const o = oracle.get(place);
    if (!o || s.position < 2 || !o.resolved || s.resolved) continue;
    const earlier = [...seq.values()]
      .filter((r) => r.chain_id === s.chain_id && r.position < s.position)
      .sort((a, b) => a.position - b.position);
    const trace = traceChainError(s, earlier);
    const found = evidence.find((e) => e.source === source && e.chain_id === s.chain_id && e.order === s.order);
    const tested = found ? causeOfCulprits(found) : null;
    rows.push({
      source,
      chainId: s.chain_id,
      position: s.position,
      order: s.order,
      instanceId: s.instance_id,
      fingerprint: fingerprint(s)!,
      trace,
      cause: tested ?? causeOf(trace),
      causeFrom: tested ? 'evidence' : 'trace',
      evidence: found ? { verdict: found.verdict, culprits: found.culprits } : null,
      steps: [idOf(o), idOf(s)],
      flakyTests: flakyTestsOf([o, s]),
      unstable: verdictUnstable(o) || verdictUnstable(s),
    });
  }
  return rows.sort((a, b) => a.chainId.localeCompare(b.chainId) || a.position - b.position);
}

/** The kind of every culprit hunk the evidence found, when there are some and they agree. */
function causeOfCulprits(e: ChainErrorEvidence): ChainErrorCause | null {
  const kinds = new Set(e.culprits.flatMap((c) => c.hunks.map((h) => h.kind)));
  return kinds.size === 1 ? [...kinds][0] : null;
}

function costRows(records: readonly BatchRecord[]): CostRow[] {
  const withCost = records.filter((r) => r.cost !== null);
  const rows = new Map<string, CostRow>();
  const add = (source: string, chainId: string | null, cost: number) => {
    const key = `${source}\u0000${chainId ?? ''}`;
    const row = rows.get(key) ?? { source, chainId, steps: 0, cost: 0 };
    rows.set(key, { ...row, steps: row.steps + 1, cost: row.cost + cost });
  };
  for (const r of withCost) {
    add(r.source, r.chain_id, r.cost!);
    add(r.source, null, r.cost!);
  }
  return [...rows.values()].sort(
    (a, b) => a.source.localeCompare(b.source) || (a.chainId ?? '').localeCompare(b.chainId ?? ''),
  );
}

/** Each chain's outcome per source and mode: resolved steps, and whether the whole chain is. */
export const perChainAggregate: BatchAggregate = {
  id: 'per-chain',
  compute(manifest, records) {
    const rows: (string | number | null)[][] = [];
    for (const chain of manifest.chains)
      for (const source of manifest.sources)
        for (const mode of manifest.modes) {
          const mine = records.filter((r) => r.chain_id === chain.id && r.source === source.name && r.mode === mode);
          const judged = mine.filter(hasVerdict);
          const resolved = judged.filter((r) => r.resolved).length;
          const complete = judged.length === chain.steps.length;
          rows.push([
            chain.id,
            source.name,
            mode,
            chain.steps.length,
            judged.length,
            resolved,
            complete ? (resolved === judged.length ? 'yes' : 'no') : null,
          ]);
        }
    return {
      title: 'Per chain',
      columns: ['chain_id', 'source', 'mode', 'steps', 'judged', 'resolved', 'full_chain'],
      rows,
    };
  },
};

export const DEFAULT_AGGREGATES: readonly BatchAggregate[] = [perChainAggregate];
