/**
 * The strings an evaluation log is written and read with. They are the SWE-bench harness's own
 * (swebench/harness/constants), so logs from the harness and from ChainLens's runner grade alike.
 */

/** Echoed by the eval script (`: '>>>>> Start Test Output'` under `set -x`) right before the test command. */
export const START_TEST_OUTPUT = '>>>>> Start Test Output';
/** Echoed right after the test command. */
export const END_TEST_OUTPUT = '>>>>> End Test Output';
/**
 * v5 eval scripts record the test command's own exit status after the end marker:
 * `SWEBENCH_TEST_EXIT_CODE=$?` before the end marker, `echo ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"` after it.
 */
export const TEST_EXIT_CODE = '>>>>> Test Exit Code';
export const TEST_EXIT_CODE_VAR = 'SWEBENCH_TEST_EXIT_CODE';

/** Written when neither the model patch nor its fallbacks applied. */
export const APPLY_PATCH_FAILED = '>>>>> Patch Apply Failed';
/** Written when the repository could not be reset to the state under test. */
export const RESET_FAILED = '>>>>> Reset Failed';
/** Written when the test run itself errored (the container died, the command could not start). */
export const TESTS_ERRORED = '>>>>> Tests Errored';
/** Written when the test run was killed for taking too long. */
export const TESTS_TIMED_OUT = '>>>>> Tests Timed Out';

/**
 * The line the harness appends to the test output when it kills a run for its timeout
 * (run_evaluation.py: `\n\nTimeout error: {timeout} seconds exceeded.`); such a run is never graded.
 */
export function timeoutNotice(seconds: number): string {
  return `Timeout error: ${seconds} seconds exceeded.`;
}

/** The eval-script lines around the test command, as SWE-bench writes them. */
export function evalScriptTestSection(testCommand: string, opts: { recordExitCode: boolean }): string[] {
  if (!opts.recordExitCode) return [`: '${START_TEST_OUTPUT}'`, testCommand, `: '${END_TEST_OUTPUT}'`];
  return [
    `: '${START_TEST_OUTPUT}'`,
    testCommand,
    `${TEST_EXIT_CODE_VAR}=$?`,
    `: '${END_TEST_OUTPUT}'`,
    `echo "${TEST_EXIT_CODE}: $${TEST_EXIT_CODE_VAR}"`,
  ];
}
