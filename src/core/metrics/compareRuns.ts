import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import { UserError } from '../util/errors';
import { isSubset } from './chainReport';

/**
 * Why an unresolved step failed (ChainSWE's failure fingerprints):
 * broke-working-code: a PASS_TO_PASS test fails; left-bug-unfixed: only FAIL_TO_PASS tests fail;
 * no-usable-patch: empty patch, patch did not apply, or no gradable test run.
 */
export type FailureFingerprint = 'broke-working-code' | 'left-bug-unfixed' | 'no-usable-patch';

/** Works on anything carrying a step's verdict and test buckets (eval reports, batch records). */
export function fingerprint(
  step: Pick<StepEvaluation, 'resolved' | 'status'> & {
    tests_status: Pick<StepEvaluation['tests_status'], 'PASS_TO_PASS'>;
  },
): FailureFingerprint | null {
  if (step.resolved) return null;
  if (step.status === 'empty_patch' || step.status === 'error') return 'no-usable-patch';
  if (step.tests_status.PASS_TO_PASS.failure.length > 0) return 'broke-working-code';
  return 'left-bug-unfixed';
}

export interface RunSummary {
  mode: string;
  runId: string;
  resolved: number;
  total: number;
  /** Per-bug success rate. */
  rate: number;
  fullChain: boolean;
  /** Only some of the chain's steps were evaluated: no full-chain verdict either way. */
  subset: boolean;
}

export interface PositionRow {
  order: number;
  instanceId: string;
  oracle: StepEvaluation['status'];
  seq: StepEvaluation['status'];
  /**
   * Resolved under Oracle but not under Seq, at position 2 or later: the earlier steps' work broke
   * this one (docs/reference/metrics.md). Step 1 starts at base_commit in both modes, so a
   * difference there is the solver's variance, never a chain error.
   */
  chainError: boolean;
  seqFingerprint: FailureFingerprint | null;
  oracleFingerprint: FailureFingerprint | null;
}

export interface RunComparison {
  chainId: string;
  oracle: RunSummary;
  seq: RunSummary;
  positions: PositionRow[];
  chainErrors: number[];
}

function summarize(r: ChainEvaluation): RunSummary {
  const total = r.steps.length;
  return {
    mode: r.mode,
    runId: r.run_id,
    resolved: r.resolved_steps,
    total,
    rate: total ? r.resolved_steps / total : 0,
    fullChain: r.full_chain_resolved,
    subset: isSubset(r),
  };
}

/** ChainSWE numbers bug fixes from 1 (`order`, 1-indexed): the first has no earlier work to inherit. */
const FIRST_POSITION = 1;

/**
 * A step's 1-based place in the chain: from the report's chain_orders (orders need not start at
 * 1, and a subset report may not hold the first step); reports of earlier versions lack them, and
 * there the order stands in, as it did.
 */
function positionOf(report: ChainEvaluation, order: number): number {
  const index = report.chain_orders?.indexOf(order) ?? -1;
  return index >= 0 ? index + 1 : order;
}

/** Oracle vs Seq evaluations of one chain, step by step. */
export function compareRuns(oracle: ChainEvaluation, seq: ChainEvaluation): RunComparison {
  if (oracle.chain_id !== seq.chain_id)
    throw new UserError(`the reports are of different chains ('${oracle.chain_id}' and '${seq.chain_id}')`, 'input');
  if (oracle.mode !== 'oracle' || seq.mode !== 'seq')
    throw new UserError(`expected an Oracle report then a Seq report, got ${oracle.mode} and ${seq.mode}`, 'usage');
  const seqByOrder = new Map(seq.steps.map((s) => [s.order, s]));
  const positions: PositionRow[] = [];
  for (const o of oracle.steps) {
    const s = seqByOrder.get(o.order);
    if (!s) continue;
    const position = positionOf(oracle, o.order);
    positions.push({
      order: o.order,
      instanceId: o.instance_id,
      oracle: o.status,
      seq: s.status,
      chainError: position > FIRST_POSITION && o.resolved && !s.resolved,
      seqFingerprint: fingerprint(s),
      oracleFingerprint: fingerprint(o),
    });
  }
  return {
    chainId: oracle.chain_id,
    oracle: summarize(oracle),
    seq: summarize(seq),
    positions,
    chainErrors: positions.filter((p) => p.chainError).map((p) => p.order),
  };
}
