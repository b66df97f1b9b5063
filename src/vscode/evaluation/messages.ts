// What to tell a person about an evaluation that gave no verdict, in the words of the place they
// can fix it (a setting, Docker, the patch). Pure: no 'vscode'.
import type { StepEvaluation } from '../../protocol/evaluation';
import { gradeText, logShown, outcomeOf, type Disclosure, type GradeOutcome } from '../../core/study/disclosure';

export const RESTRICTED_MODE_REASON =
  "Restricted Mode: ChainLens starts no containers in an untrusted workspace (running a step's tests runs the repository's code). Trust this folder to run them.";

const ENGINE_UNREACHABLE =
  /Cannot reach the Docker engine|connect ENOENT|ECONNREFUSED|docker\.sock|engine not reachable/i;
const IMAGE_MISSING =
  /No such image|image .* (not found|is not available|unavailable)|pull access denied|manifest unknown/i;

/** A one-line headline for an evaluation error (or a thrown error of the evaluation), plus the raw text. */
export function evaluationErrorHeadline(error: string, kind: StepEvaluation['error_kind'] | 'thrown'): string {
  if (/Docker context '.*' \(named by .*\) does not exist/.test(error))
    return 'The Docker context named does not exist: check chainlens.docker.context, DOCKER_CONTEXT or `docker context ls`';
  if (ENGINE_UNREACHABLE.test(error)) return 'Docker engine not reachable: start Docker or set chainlens.docker.host';
  if (IMAGE_MISSING.test(error))
    return 'The evaluation image is not available: build or pull it, or set chainlens.image';
  switch (kind) {
    case 'patch':
      return 'The work did not apply in the container (see the log)';
    case 'timeout':
      return 'The tests did not finish within chainlens.timeoutSeconds';
    case 'cancelled':
      return 'Cancelled';
    case 'log':
      return 'The test log could not be graded (no test results found in it)';
    case 'environment':
      return 'The evaluation environment failed';
    default:
      return 'The evaluation failed';
  }
}

/** Headline and detail of a StepEvaluation with status 'error' or 'empty_patch'. */
export function describeEvaluationProblem(
  evaluation: StepEvaluation,
): { headline: string; detail: string } | undefined {
  if (evaluation.status === 'empty_patch')
    return { headline: 'Nothing to evaluate: the step has no changes', detail: '' };
  if (evaluation.status !== 'error') return undefined;
  const detail = evaluation.error ?? '';
  return { headline: evaluationErrorHeadline(detail, evaluation.error_kind), detail };
}

export interface BucketCount {
  passed: number;
  total: number;
}

export function bucketCounts(evaluation: StepEvaluation): { f2p: BucketCount; p2p: BucketCount } {
  const count = (b: { success: string[]; failure: string[] }): BucketCount => ({
    passed: b.success.length,
    total: b.success.length + b.failure.length,
  });
  return { f2p: count(evaluation.tests_status.FAIL_TO_PASS), p2p: count(evaluation.tests_status.PASS_TO_PASS) };
}

/** The counts the disclosure policy words (src/core/study/disclosure.ts gradeText). */
export function gradeOutcome(evaluation: StepEvaluation): GradeOutcome {
  return outcomeOf(evaluation, describeEvaluationProblem(evaluation)?.headline);
}

/** An evaluation's line as far as the disclosure allows; undefined when nothing of it may be shown. */
export function shownSummary(d: Disclosure, evaluation: StepEvaluation): string | undefined {
  if (d.testResults === 'none') return undefined;
  return d.testResults === 'full' ? evaluationSummary(evaluation) : gradeText(d, gradeOutcome(evaluation));
}

/**
 * The Output channel's line for a finished evaluation: as much as the disclosure allows (a study
 * participant reads the channel too), the log's path only where results are shown in full.
 */
export function outputLine(d: Disclosure, evaluation: StepEvaluation): string {
  const log = logShown(d) ? ` (log: ${evaluation.log_path})` : '';
  return `step ${evaluation.order} (${evaluation.source}): ${gradeText(d, gradeOutcome(evaluation))} in ${evaluation.duration_s} s${log}`;
}

/** "resolved · F2P 5/5 · P2P 22/22" */
export function evaluationSummary(evaluation: StepEvaluation): string {
  const problem = describeEvaluationProblem(evaluation);
  if (problem) return problem.headline;
  const { f2p, p2p } = bucketCounts(evaluation);
  return `${evaluation.status} · F2P ${f2p.passed}/${f2p.total} · P2P ${p2p.passed}/${p2p.total}`;
}

export interface FailedTest {
  testId: string;
  bucket: 'F2P' | 'P2P';
  status: string;
}

/** The graded failures of an evaluation, F2P first (the step's own bug before regressions). */
export function failedTests(evaluation: StepEvaluation): FailedTest[] {
  const of = (bucket: 'F2P' | 'P2P', ids: string[]): FailedTest[] =>
    ids.map((testId) => ({ testId, bucket, status: evaluation.status_map[testId] ?? 'did not run' }));
  return [
    ...of('F2P', evaluation.tests_status.FAIL_TO_PASS.failure),
    ...of('P2P', evaluation.tests_status.PASS_TO_PASS.failure),
  ];
}

/** "Step 1 tests (your work): unresolved · F2P 2/5 · P2P 22/22." */
export function outcomeText(evaluation: StepEvaluation, source: 'worktree' | 'submitted'): string {
  const what = source === 'worktree' ? 'your work' : 'the submitted commit';
  return `Step ${evaluation.order} tests (${what}): ${evaluationSummary(evaluation)}.`;
}
