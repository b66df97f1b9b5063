import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import type { GradingProfile } from '../../protocol/grading';
import type { RunMode } from '../../protocol/run';

/** The `chainlens eval --report` document from a run's step evaluations (in chain order). */
export function isSubset(report: ChainEvaluation): boolean {
  const evaluated = new Set(report.steps.map((s) => s.order));
  return report.chain_orders !== undefined && report.chain_orders.some((o) => !evaluated.has(o));
}

/** The `chainlens eval --report` document from a run's step evaluations (in chain order). */
export function chainReport(args: {
  chainId: string;
  runId: string;
  mode: RunMode;
  profile: GradingProfile;
  steps: StepEvaluation[];
  /** Every step order of the chain; without it the steps given are taken for the whole chain. */
  chainOrders?: number[];
}): ChainEvaluation {
  const steps = [...args.steps].sort((a, b) => a.order - b.order);
  const resolved = steps.filter((s) => s.resolved).length;
  const evaluated = new Set(steps.map((s) => s.order));
  const whole = args.chainOrders === undefined || args.chainOrders.every((o) => evaluated.has(o));
  return {
    chain_id: args.chainId,
    mode: args.mode,
    profile: args.profile,
    run_id: args.runId,
    steps,
    resolved_steps: resolved,
    // A subset of the chain (`eval --steps 2`) never makes a full-chain claim.
    full_chain_resolved: whole && steps.length > 0 && resolved === steps.length,
    ...(args.chainOrders ? { chain_orders: [...args.chainOrders] } : {}),
  };
}
