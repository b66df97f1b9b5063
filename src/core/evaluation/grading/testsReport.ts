import type { EvalType, GradingProfile, TestBucket, TestsStatus } from '../../../protocol/grading';
import { PROFILE_RULES } from './profiles/index';
import type { TestOutcome } from './profiles/rules';
import { FAILED, type StatusMap } from './statuses';

/**
 * The harness's get_eval_tests_report. F2P and P2P buckets keep the order of the given id lists.
 * fail_only: only an exact FAILED counts as failure; everything else, missing included, succeeds.
 * FAIL_TO_FAIL and PASS_TO_FAIL stay empty, as in the harness's reports.
 */
export function buildTestsStatus(
  statusMap: StatusMap,
  failToPass: readonly string[],
  passToPass: readonly string[],
  evalType: EvalType,
  profile: GradingProfile,
): TestsStatus {
  const rules = PROFILE_RULES[profile];
  const failOnly = (id: string): TestOutcome => (statusMap.get(id) === FAILED ? 'failure' : 'success');
  const f2p = evalType === 'fail_only' ? failOnly : (id: string) => rules.failToPass(id, statusMap);
  const p2p = evalType === 'fail_only' ? failOnly : (id: string) => rules.passToPass(id, statusMap);
  return {
    FAIL_TO_PASS: bucket(failToPass, f2p),
    PASS_TO_PASS: bucket(passToPass, p2p),
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
}

function bucket(ids: readonly string[], outcome: (id: string) => TestOutcome): TestBucket {
  const result: TestBucket = { success: [], failure: [] };
  for (const id of ids) {
    const o = outcome(id);
    if (o !== 'neither') result[o].push(id);
  }
  return result;
}

/** A log that cannot be graded: no test counts as passing. */
export function unusableTestsStatus(failToPass: readonly string[], passToPass: readonly string[]): TestsStatus {
  return {
    FAIL_TO_PASS: { success: [], failure: [...failToPass] },
    PASS_TO_PASS: { success: [], failure: [...passToPass] },
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
}
