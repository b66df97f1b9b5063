// The arguments ChainLens commands receive from menus, tree items, code lenses and other
// features: one shape per kind, checked here, so a feature never imports another to read them.

/** Step argument of the commands a step's context menu runs. */
export interface StepCommandArg {
  kind: 'step';
  order: number;
}

export function isStepArg(value: unknown): value is StepCommandArg {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as StepCommandArg).kind === 'step' &&
    typeof (value as StepCommandArg).order === 'number'
  );
}

/** A symbol of a file (Compare Symbol with Gold, the code lenses), optionally of a given step. */
export interface SymbolTarget {
  readonly file: string;
  /** Qualified name; absent or `<module>` for top-level code. */
  readonly symbol?: string;
  readonly order?: number;
}

export function isSymbolTarget(x: unknown): x is SymbolTarget {
  return typeof x === 'object' && x !== null && typeof (x as SymbolTarget).file === 'string';
}

/** A batch run directory (an item of the Runs view). */
export interface BatchRunArg {
  kind: 'batchRun';
  dir: string;
}

export function isBatchRunArg(value: unknown): value is BatchRunArg {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as BatchRunArg).kind === 'batchRun' &&
    typeof (value as BatchRunArg).dir === 'string'
  );
}

/** One step of a batch run directory: `id` is its stepId (docs/reference/batch.md, "Run directory"). */
export interface BatchStepArg {
  kind: 'batchStep';
  dir: string;
  id: string;
}

export function isBatchStepArg(value: unknown): value is BatchStepArg {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as BatchStepArg).kind === 'batchStep' &&
    typeof (value as BatchStepArg).dir === 'string' &&
    typeof (value as BatchStepArg).id === 'string'
  );
}
