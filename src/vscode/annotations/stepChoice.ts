import type { RunState, StepState } from '../../protocol/run';

/**
 * The step whose patch the editor annotates: the one the person asked for (if it has started),
 * else the current step, changed or not (a step just started shows what its gold patch changes,
 * as undershoot), else, once every step has ended, the last one. Never a step the person did not
 * ask for while another is current: submitting a step moves the marks to the next one at once.
 */
export function annotatedStep(state: RunState, chosen: number | undefined): StepState | undefined {
  const started = state.steps.filter((s) => s.start !== null);
  const asked = chosen === undefined ? undefined : started.find((s) => s.order === chosen);
  if (asked) return asked;
  const current = started.find((s) => s.order === state.currentStep && s.end === null);
  if (current) return current;
  const ended = started.filter((s) => s.end !== null);
  return ended[ended.length - 1];
}
