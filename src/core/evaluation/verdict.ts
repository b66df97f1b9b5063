import type { GradeExplained } from './grading';
import type { EvalErrorKind, StepEvalStatus } from '../../protocol/evaluation';
import type { FilterOutcome, StepGrading } from '../../protocol/codethread';
import { pr1Filter } from '../codethread/filter';

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
  /** A step graded by CodeThread's PR1 filter: its outcome (resolved = the filter passed). */
  filter?: FilterOutcome;
}

/**
 * One step's outcome. Order matters: trouble that stops the tests (environment, cancel, timeout,
 * a patch that does not apply) is an error before any grading; a log the harness would not grade
 * is an error too, the environment's when no tests ran at all (docs/reference/run-modes.md, "Outcomes"); otherwise
 * resolved means the harness's RESOLVED_FULL (or, for a step graded by the PR1 filter, that it passed).
 *
 * A log in which no test ran after the patch applied is the code's error (`log`), not the
 * environment's: the patch ran, so a suite it left uncollectable (a broken `conftest.py`) is the
 * solver's failure, and it stays in every rate as unresolved (ChainSWE §5.3 counts "leaves the
 * suite uncollectable" as no usable patch; the SWE-bench harness keeps such instances in its
 * denominator too, tagging them only as ambiguous). Only trouble ChainLens sees outside the
 * code (engine, image, container) is `environment`.
 */
export function stepVerdict(
  facts: ContainerFacts,
  graded: GradeExplained | null,
  grading: StepGrading = 'resolve',
): StepVerdict {
  const error = (errorKind: EvalErrorKind, message: string): StepVerdict => ({
    status: 'error',
    resolved: false,
    error: message,
    errorKind,
  });
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
  if (grading === 'pr1-filter') {
    // docs/reference/codethread.md: every P2P passes and every F2P still fails.
    const filter = pr1Filter(graded.grade.tests_status);
    return {
      status: filter.passed ? 'resolved' : 'unresolved',
      resolved: filter.passed,
      error: null,
      errorKind: null,
      filter,
    };
  }
  const resolved = graded.grade.resolution === 'RESOLVED_FULL';
  return { status: resolved ? 'resolved' : 'unresolved', resolved, error: null, errorKind: null };
}
