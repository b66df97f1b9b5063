import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readTestLog } from '../../core/sweci';
import type { SweciTestRun } from '../../protocol/sweci';
import { sweciTestSpec } from '../../core/sweci';
import { evaluateState } from '../docker';

/**
 * SWE-CI's test command, run at the repository's top: pytest over `tests/` with `src` and the top
 * on the import path. `-rA` (instead of SWE-CI's JSON report plugin, which a task image need not
 * have) prints one status line per test, read by the harness's pytest parser; `python` is the
 * image's, else `python3`.
 */
export const SWECI_TEST_CMD =
  'PY=$(command -v python || command -v python3); PYTHONPATH=src:. "$PY" -m pytest tests --color=no --tb=short --disable-warnings -rA -p no:cacheprovider';

export interface TestRunOptions {
  image: string;
  /** A git repository holding `commit`. */
  repo: string;
  commit: string;
  testCmd: string;
  timeoutS: number;
  /** Folder for the run's log (made if missing). */
  logDir: string;
  runId: string;
  signal?: AbortSignal;
}

/**
 * Runs the task's tests on one state in a fresh container of the task's image (the state's files
 * copied in, nothing mounted), and reads which tests passed. A run that does not count (pytest
 * exit code other than 0 or 1, a timeout, an engine problem) says why in `problem`.
 */
export async function runTaskTests(o: TestRunOptions): Promise<SweciTestRun> {
  mkdirSync(o.logDir, { recursive: true });
  const at = new Date();
  const result = await evaluateState(
    sweciTestSpec(o.image, o.commit, o.testCmd),
    { localRepo: o.repo, stateDiff: '' },
    {
      timeoutS: o.timeoutS,
      signal: o.signal,
      runId: o.runId,
      logPath: join(o.logDir, 'test_output.log'),
    },
  );
  const outcome = readTestLog(result.log);
  const problem = result.cancelled
    ? 'the test run was cancelled'
    : result.environmentError
      ? result.environmentError
      : result.timedOut
        ? `the test run exceeded ${o.timeoutS} s`
        : result.exitCode === null
          ? 'the tests did not finish (no exit code in the log)'
          : result.exitCode > 1
            ? `pytest ended with exit code ${result.exitCode} (${pytestExitMeaning(result.exitCode)})`
            : null;
  return {
    commit: o.commit,
    passed: problem ? [] : outcome.passed,
    failed: problem ? [] : outcome.failed,
    exitCode: result.exitCode,
    usable: problem === null,
    problem,
    logPath: result.logPath,
    evaluatedAt: at.toISOString(),
    durationS: Math.round(result.durationS * 100) / 100,
  };
}

function pytestExitMeaning(code: number): string {
  return (
    { 2: 'interrupted, e.g. a collection error', 3: 'internal error', 4: 'usage error', 5: 'no tests collected' }[
      code
    ] ?? 'not a test outcome'
  );
}
