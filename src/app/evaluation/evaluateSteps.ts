// Evaluate steps of a run in containers (src/infra/evaluation does one step: container, grading,
// records) and gather the chain's report. `chainlens eval` evaluates every submitted step in turn;
// the editor evaluates one step at a time through the same evaluateStep.
import { chainReport } from '../../core/metrics/chainReport';
import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import type { GradingProfile } from '../../protocol/grading';
import type { RunState } from '../../protocol/run';
import { evaluateStep, type StepEvaluationRequest } from '../../infra/evaluation';
import type { Workspace } from '../../infra/runs/workspace';

export { evaluateStep, type StepEvaluationRequest };
export { defaultStepOrder } from './defaultStep';

export interface StepsEvaluationRequest extends Omit<StepEvaluationRequest, 'step' | 'workspace' | 'dir'> {
  orders: readonly number[];
  profile: GradingProfile;
}

/** Each step in `orders`, one container at a time, until done or `signal` aborts; then the chain report. */
export async function evaluateSteps(
  ws: Workspace,
  state: RunState,
  chainId: string,
  request: StepsEvaluationRequest,
  onStep: (phase: 'start' | 'done', order: number, result?: StepEvaluation) => void,
): Promise<{ results: StepEvaluation[]; report: ChainEvaluation }> {
  const { orders, ...each } = request;
  const results: StepEvaluation[] = [];
  for (const order of orders) {
    if (request.signal?.aborted) break;
    onStep('start', order);
    const result = await evaluateStep({ ...each, dir: ws.dir, workspace: ws, step: order });
    onStep('done', order, result);
    results.push(result);
  }
  const report = chainReport({
    chainId,
    runId: state.runId,
    mode: state.mode,
    profile: request.profile,
    steps: results,
    // Every step of the run: a subset (`eval --steps 2`) then makes no full-chain claim.
    chainOrders: state.steps.map((s) => s.order),
  });
  return { results, report };
}
