import type { GradeResult, StepReport } from '../../../protocol/grading';

/**
 * The harness's report.json entry for one instance. A null patch is "patch_is_None" and is not
 * run; otherwise patch_successfully_applied is the log's usability, and tests_status is present
 * only for a usable log, as in the harness.
 */
export function buildInstanceReport(instanceId: string, patch: string | null, grade: GradeResult | null): StepReport {
  if (patch === null || grade === null) {
    return {
      [instanceId]: {
        patch_is_None: patch === null,
        patch_exists: patch !== null,
        patch_successfully_applied: false,
        resolved: false,
      },
    };
  }
  return {
    [instanceId]: {
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: grade.log_ok,
      resolved: grade.log_ok && grade.resolution === 'RESOLVED_FULL',
      ...(grade.log_ok ? { tests_status: grade.tests_status } : {}),
    },
  };
}
