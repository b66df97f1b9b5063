import { evalScriptTestSection } from './markers';
import { shellQuote, shellWords } from './shell';

/**
 * v4 = the harness before it recorded the test command's exit code; v5 (default) echoes it after
 * the end marker so graders can tell "tests failed" from "suite crashed before reporting".
 */
export type HarnessProfile = 'v4' | 'v5';

/**
 * The harness writes two eval scripts: Python repositories' (test_spec/python.py: git status and
 * diff for the record, `git apply -v`) and every other language's (test_spec/utils.py
 * make_eval_script_list_common: no record, `git apply --verbose --reject`, then the build commands).
 */
export type EvalScriptShape = 'python' | 'common';

export interface EvalScriptOptions {
  /** The repository's path inside the container. */
  readonly repoDir: string;
  /** The commit (or ref) the test files are reset to. */
  readonly baseRef: string;
  /** Container paths of the test patch files, applied in this order. */
  readonly testPatchFiles: readonly string[];
  readonly testFilesToReset: readonly string[];
  readonly testFilesToDelete: readonly string[];
  readonly testCmd: string;
  readonly profile?: HarnessProfile;
  /** Environment set-up run before anything else (the harness's conda activation and eval_commands). */
  readonly preamble?: readonly string[];
  readonly shape?: EvalScriptShape;
  /** Run after the test patches and before the start marker (the harness's `build` spec). */
  readonly buildCmd?: string;
}

/**
 * The eval script in the harness's shape (test_spec/python.py make_eval_script_list_py plus
 * utils.record_test_exit_code): informational git output, reset of the test files, test patches,
 * the command between the markers, its exit code, and the same reset again afterwards. No `-e`:
 * a failing step must not hide the markers, exactly as in the harness.
 */
export function buildEvalScript(o: EvalScriptOptions): string {
  const profile = o.profile ?? 'v5';
  const repo = shellQuote(o.repoDir);
  const reset: string[] = [];
  if (o.testFilesToReset.length)
    reset.push(`git checkout ${shellQuote(o.baseRef)} -- ${shellWords(o.testFilesToReset)}`);
  if (o.testFilesToDelete.length) reset.push(`rm -f ${shellWords(o.testFilesToDelete)}`);
  const common = o.shape === 'common';
  const lines = [
    '#!/bin/bash',
    'set -uxo pipefail',
    `cd ${repo}`,
    ...(o.preamble ?? []),
    `git config --global --add safe.directory ${repo}`,
    `cd ${repo}`,
    ...(common ? [] : ['git status', `git -c core.fileMode=false diff ${shellQuote(o.baseRef)}`]),
    ...reset,
    ...o.testPatchFiles.map((p) =>
      common ? `git apply --verbose --reject ${shellQuote(p)}` : `git apply -v ${shellQuote(p)}`,
    ),
    ...(o.buildCmd ? [o.buildCmd] : []),
    ...evalScriptTestSection(o.testCmd, { recordExitCode: profile === 'v5' }),
    ...reset,
  ];
  return lines.join('\n') + '\n';
}
