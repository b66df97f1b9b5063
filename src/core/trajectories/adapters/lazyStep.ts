// Normalised steps whose derived fields (kind, files touched, patch so far) are computed on first
// read. The derivations run for the whole trajectory at once, since each step's depends on the
// steps before it; a listing of a big output.jsonl's instances never needs them, a step table
// needs the kinds and files, and the patch after every step was most of a load's time and memory.
// The steps still look like plain data: the derived fields are own enumerable properties, in the
// order the protocol lists them, so JSON.stringify, structured clone (postMessage), spreading and
// deep equality see what an eagerly built step would show.
import type { PatchSoFar, TrajectoryStep } from '../../../protocol/trajectory';
import type { StepEffects } from '../interpret/stepEffects';

/** One trajectory's derivations, each made once, the first time a step asks for it. */
export class StepDerivations {
  private effects: StepEffects[] | undefined;
  private patches: (PatchSoFar | undefined)[] | undefined;

  constructor(
    private readonly interpret: () => StepEffects[],
    private readonly replay: (effects: StepEffects[]) => (PatchSoFar | undefined)[],
  ) {}

  effect(k: number): StepEffects {
    return (this.effects ??= this.interpret())[k];
  }

  patch(k: number): PatchSoFar | null {
    return (this.patches ??= this.replay((this.effects ??= this.interpret())))[k] ?? null;
  }
}

/** What a step is built from (an adapter's StepDraft has these). */
type StepFields = Pick<
  TrajectoryStep,
  'thought' | 'action' | 'tool' | 'observation' | 'exitCode' | 'executionTimeSec' | 'timestamp' | 'origin'
>;

const DERIVATIONS = Symbol('derivations');
type LazyStep = TrajectoryStep & { [DERIVATIONS]: StepDerivations };

/**
 * Shared accessors (one set for every step, reading the step's own derivations): a step costs
 * no closures, and V8 keeps one hidden class for all of them. Assigning a derived field turns it
 * into a plain value.
 */
function derived<K extends keyof TrajectoryStep>(
  key: K,
  read: (d: StepDerivations, index: number) => TrajectoryStep[K],
): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: LazyStep) {
      return read(this[DERIVATIONS], this.index);
    },
    set(this: LazyStep, value: TrajectoryStep[K]) {
      Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
    },
  };
}

const ACTION_KIND = derived('actionKind', (d, k) => d.effect(k).kind);
const ACTION_KIND_REASON = derived('actionKindReason', (d, k) => d.effect(k).reason);
const FILES_TOUCHED = derived('filesTouched', (d, k) => d.effect(k).touches);
const PATCH_SO_FAR = derived('patchSoFar', (d, k) => d.patch(k));

export function lazyStep(s: StepFields, index: number, derivations: StepDerivations): TrajectoryStep {
  const step = { index, thought: s.thought, action: s.action } as LazyStep;
  Object.defineProperty(step, DERIVATIONS, { value: derivations });
  Object.defineProperty(step, 'actionKind', ACTION_KIND);
  Object.defineProperty(step, 'actionKindReason', ACTION_KIND_REASON);
  if (s.tool) step.tool = s.tool;
  step.observation = s.observation;
  step.exitCode = s.exitCode;
  Object.defineProperty(step, 'filesTouched', FILES_TOUCHED);
  step.executionTimeSec = s.executionTimeSec;
  if (s.timestamp) step.timestamp = s.timestamp;
  Object.defineProperty(step, 'patchSoFar', PATCH_SO_FAR);
  step.origin = s.origin;
  return step;
}
