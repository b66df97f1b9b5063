import type { HalsteadCounts } from './halstead';

/** CodeThread's four metrics of one function (docs/reference/maintainability.md). */
export interface FunctionMaintainability {
  /** McCabe: radon's rules for Python, decision points for the others. */
  readonly cyclomatic: number;
  /** SonarSource's cognitive complexity (complexipy's additions for Python). */
  readonly cognitive: number;
  readonly halstead: HalsteadCounts;
  readonly halsteadVolume: number;
  /** radon's raw LLOC of the function's text for Python; statements for the others. */
  readonly lloc: number;
}
