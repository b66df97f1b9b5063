import type { StatusMap } from '../statuses';
import { ERROR, FAILED, PASSED, XFAIL } from '../statuses';
import type { ProfileRules, TestOutcome } from './rules';

/**
 * SWE-bench harness 4.1: exact ids only; PASSED/XFAIL pass, missing/FAILED/ERROR fail, and any
 * other status (SKIPPED above all) lands in neither list, so a skipped F2P test does not count
 * against resolution. No check of the exit code or of whether a suite ran.
 */
function outcome(testId: string, statusMap: StatusMap): TestOutcome {
  const status = statusMap.get(testId);
  if (status === PASSED || status === XFAIL) return 'success';
  if (status === undefined || status === FAILED || status === ERROR) return 'failure';
  return 'neither';
}

export const v4Rules: ProfileRules = {
  profile: 'swebench-v4',
  checkParsedLog: () => null,
  failToPass: outcome,
  passToPass: outcome,
};
