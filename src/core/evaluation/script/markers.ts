/**
 * The harness strings the runner writes. The grading side owns the shared ones
 * (src/core/evaluation/grading/markers.ts), so the runner and the parsers cannot drift apart; the ones only
 * the runner writes are defined here, copied from swebench/harness (constants, run_evaluation.py).
 */
export {
  START_TEST_OUTPUT,
  END_TEST_OUTPUT,
  TEST_EXIT_CODE,
  TEST_EXIT_CODE_VAR,
  APPLY_PATCH_FAILED,
  timeoutNotice,
  evalScriptTestSection,
} from '../grading/markers';

/** Printed when the state under test applied (the harness logs it before its patch output). */
export const APPLY_PATCH_PASS = '>>>>> Applied Patch';

/** The harness's patch fallback chain, tried in this order (run_evaluation.py GIT_APPLY_CMDS). */
export const PATCH_APPLY_COMMANDS = [
  'git apply --verbose',
  'git apply --verbose --3way',
  'git apply --verbose --reject',
  'patch --batch --forward --fuzz=5 -p1 -i',
] as const;
