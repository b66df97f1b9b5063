import type { RunState, StepState } from '../../protocol/run';

/**
 * The step whose patch the editor annotates: the one the person asked for (if it has started),
 * else the current step while its work tree differs from its start, else the latest step that
 * ended (a submitted or recorded step being looked at).
 */
export function annotatedStep(
  state: RunState,
  chosen: number | undefined,
  currentHasChanges: boolean,
): StepState | undefined {
  const started = state.steps.filter((s) => s.start !== null);
  const asked = chosen === undefined ? undefined : started.find((s) => s.order === chosen);
  if (asked) return asked;
  const current = started.find((s) => s.order === state.currentStep && s.end === null);
  if (current && currentHasChanges) return current;
  const ended = started.filter((s) => s.end !== null);
  return ended[ended.length - 1] ?? current;
}
