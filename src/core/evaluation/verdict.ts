import type { GradeExplained } from './grading';
import type { EvalErrorKind, StepEvalStatus } from '../../protocol/evaluation';
import type { GradeResult } from '../../protocol/grading';

/** What the container run reported (src/infra/docker's EvaluationResult, minus the log). */
export interface ContainerFacts {
  patchApplied: boolean;
  timedOut: boolean;
  cancelled: boolean;
  environmentError: string | null;
  timeoutS: number;
}

export interface StepVerdict {
  status: StepEvalStatus;
  resolved: boolean;
  error: string | null;
  errorKind: EvalErrorKind | null;
}

/**
 * Whether a step whose log was graded is resolved, and what its verdict carries besides. The
 * benchmark's rule (RESOLVED_FULL) when none is given; a feature with a rule of its own passes its
 * judge (CodeThread's PR1 filter, src/core/codethread/stepJudge.ts), so verdicts know no feature.
 */
export type StepJudge<Extra extends object = object> = (grade: GradeResult) => { readonly resolved: boolean } & Extra;

const resolvedFull: StepJudge = (grade) => ({ resolved: grade.resolution === 'RESOLVED_FULL' });

/**
 * One step's outcome. Order matters: trouble that stops the tests (environment, cancel, timeout,
 * a patch that does not apply) is an error before any grading; a log the harness would not grade
 * is an error too (docs/reference/run-modes.md, "Outcomes"); otherwise
 * the judge says whether it is resolved (the harness's RESOLVED_FULL unless a feature judges).
 *
 * A log in which no test ran after the patch applied is the code's error (`log`), not the
 * environment's: the patch ran, so a suite it left uncollectable (a broken `conftest.py`) is the
 * solver's failure, and it stays in every rate as unresolved (ChainSWE §5.3 counts "leaves the
 * suite uncollectable" as no usable patch; the SWE-bench harness keeps such instances in its
 * denominator too, tagging them only as ambiguous). Only trouble ChainLens sees outside the
 * code (engine, image, container) is `environment`.
 */
export function stepVerdict<Extra extends object = object>(
  facts: ContainerFacts,
  graded: GradeExplained | null,
  judge?: StepJudge<Extra>,
): StepVerdict & Partial<Extra> {
  // An error carries none of the judge's extras.
  const error = (errorKind: EvalErrorKind, message: string) =>
    ({ status: 'error', resolved: false, error: message, errorKind }) as StepVerdict & Partial<Extra>;
  if (facts.environmentError) return error('environment', facts.environmentError);
  if (facts.cancelled) return error('cancelled', 'Evaluation cancelled.');
  if (facts.timedOut) return error('timeout', `Timeout error: ${facts.timeoutS} seconds exceeded.`);
  if (!facts.patchApplied)
    return error(
      'patch',
      "The step's changes did not apply to the repository in the container (git apply, --3way, --reject and patch --fuzz=5 all failed).",
    );
  if (!graded) return error('log', 'No log to grade.');
  if (graded.problem) {
    const kind: EvalErrorKind =
      graded.problem.kind === 'timed-out' ? 'timeout' : graded.problem.kind === 'patch-apply-failed' ? 'patch' : 'log';
    return error(kind, graded.problem.message);
  }
  const { resolved, ...extra } = (judge ?? resolvedFull)(graded.grade);
  return {
    status: resolved ? 'resolved' : 'unresolved',
    resolved,
    error: null,
    errorKind: null,
    ...extra,
  } as StepVerdict & Partial<Extra>;
}
