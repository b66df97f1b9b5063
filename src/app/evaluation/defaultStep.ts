// Kept apart from evaluateSteps.ts: the editor imports this at activation, and the evaluator
// (dockerode, grading parsers) only when the first evaluation runs.
import type { RunState } from '../../protocol/run';

/** The step an evaluation means when none is named: the current one, or the last once the run is complete. */
export function defaultStepOrder(state: RunState): number {
  return state.currentStep ?? state.steps[state.steps.length - 1].order;
}
