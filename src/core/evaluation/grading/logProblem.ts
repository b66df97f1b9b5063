/** Why a log cannot be graded (the harness's "found" flag is false). */
export type LogProblemKind =
  | 'patch-apply-failed'
  | 'reset-failed'
  | 'tests-errored'
  | 'timed-out'
  | 'markers-missing'
  | 'parser-crashed'
  | 'no-tests-ran'
  | 'exit-code-contradicts-log';

export interface LogProblem {
  readonly kind: LogProblemKind;
  /** One sentence for a person. */
  readonly message: string;
}
