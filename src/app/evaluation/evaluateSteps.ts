// Evaluate steps of a run in containers (evaluateStep.ts does one step: container, grading,
// records) and gather the chain's report. `chainlens eval` evaluates every submitted step in turn;
// the editor evaluates one step at a time through the same evaluateStep.
import { chainReport } from '../../core/metrics/chainReport';
import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import type { GradingProfile } from '../../protocol/grading';
import type { RunState } from '../../protocol/run';
import { evaluateStep, type StepEvaluationRequest } from './evaluateStep';
import type { Workspace } from '../../infra/run/workspace';
import type { StepContainers } from './stepContainers';
import { orShutdown } from '../../infra/process/shutdown';

export { evaluateStep, type StepEvaluationRequest };
export { defaultStepOrder } from './defaultStep';

export interface StepsEvaluationRequest extends Omit<
  StepEvaluationRequest,
  'step' | 'workspace' | 'dir' | 'onContainerRemoval'
> {
  orders: readonly number[];
  profile: GradingProfile;
  /**
   * Given (stepContainers.ts): each next step's container starts while the step before it runs
   * its tests (docs/reference/containers.md, "Started ahead"). `warm` is the first step's.
   */
  containers?: StepContainers;
}

/**
 * Each step in `orders`, one container at a time, until done or `signal` aborts; then the chain
 * report. A step's result is announced (`onStep` 'done') once it is graded and recorded, while
 * its container is still being removed; every removal is over when this returns.
 */
export async function evaluateSteps(
  ws: Workspace,
  state: RunState,
  chainId: string,
  request: StepsEvaluationRequest,
  onStep: (phase: 'start' | 'done', order: number, result?: StepEvaluation) => void,
): Promise<{ results: StepEvaluation[]; report: ChainEvaluation }> {
  const { orders, containers, warm: first, ...rest } = request;
  // A signal to this process ends the loop like a cancel: no next step, nothing recorded for it.
  const each = { ...rest, signal: orShutdown(request.signal) };
  const results: StepEvaluation[] = [];
  const removals: Promise<void>[] = [];
  let warm = first;
  try {
    for (const [i, order] of orders.entries()) {
      if (each.signal.aborted) break;
      onStep('start', order);
      const mine = warm;
      warm = i + 1 < orders.length && !each.signal.aborted ? containers?.startAhead(ws.dir) : undefined;
      try {
        const result = await evaluateStep({
          ...each,
          dir: ws.dir,
          workspace: ws,
          step: order,
          warm: mine,
          containers,
          onContainerRemoval: (removed) => removals.push(removed),
        });
        onStep('done', order, result);
        results.push(result);
      } finally {
        // A step that ran no container (no patch, cancelled) leaves its container unused.
        await mine?.discard();
      }
    }
  } finally {
    await warm?.discard();
    await Promise.all(removals);
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
