import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import type { GradingProfile } from '../../protocol/grading';
import type { RunMode } from '../../protocol/run';

/** The `chainlens eval --report` document from a run's step evaluations (in chain order). */
export function chainReport(args: {
  chainId: string;
  runId: string;
  mode: RunMode;
  profile: GradingProfile;
  steps: StepEvaluation[];
}): ChainEvaluation {
  const steps = [...args.steps].sort((a, b) => a.order - b.order);
  const resolved = steps.filter((s) => s.resolved).length;
  return {
    chain_id: args.chainId,
    mode: args.mode,
    profile: args.profile,
    run_id: args.runId,
    steps,
    resolved_steps: resolved,
    full_chain_resolved: steps.length > 0 && resolved === steps.length,
  };
}
