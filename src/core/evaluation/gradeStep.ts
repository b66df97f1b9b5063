import { gradeLogExplained, type GradeExplained } from './grading';
import type { StepSpec } from './stepSpec';
import type { ContainerFacts } from './verdict';

/**
 * A step's log graded with its spec's parser, eval type and F2P/P2P, as the harness grades it; null
 * when the run gives nothing to grade (the state did not apply, the environment failed, it was
 * cancelled or timed out: stepVerdict says which).
 */
export function gradeStepLog(
  spec: StepSpec,
  run: Omit<ContainerFacts, 'timeoutS'> & { readonly log: string },
): GradeExplained | null {
  const gradable = run.patchApplied && !run.environmentError && !run.cancelled && !run.timedOut;
  if (!gradable) return null;
  return gradeLogExplained({
    log: run.log,
    profile: spec.profile,
    parser: spec.parser,
    failToPass: spec.failToPass,
    passToPass: spec.passToPass,
    evalType: spec.evalType,
    instanceId: spec.instanceId,
    version: spec.version,
  });
}
