import type { GradingProfile } from '../../../../protocol/grading';
import type { LogProblem } from '../logProblem';
import type { StatusMap } from '../statuses';

/** How one test of a pass_and_fail bucket lands: in success, in failure, or (v4 SKIPPED) in neither list. */
export type TestOutcome = 'success' | 'failure' | 'neither';

/** What differs between harness versions once a log has been parsed. */
export interface ProfileRules {
  readonly profile: GradingProfile;
  /** Checks on a parsed log beyond the markers both versions share; null when the log is usable. */
  checkParsedLog(log: string, statusMap: StatusMap): LogProblem | null;
  /** A FAIL_TO_PASS test under pass_and_fail. */
  failToPass(testId: string, statusMap: StatusMap): TestOutcome;
  /** A PASS_TO_PASS test under pass_and_fail. */
  passToPass(testId: string, statusMap: StatusMap): TestOutcome;
}
