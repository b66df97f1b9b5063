// Where a SWE-CI loop has to choose (docs/sweci.md, "Departures and choices"): the defaults follow
// the published harness, and the state the next iteration starts from follows the failed-run one.
import type { SweciPolicies, SweciRecord, SweciTask, SweciTestRun } from '../../protocol/sweci';

/**
 * The defaults: run.py's `keep_this_epoch` discards the code of an iteration whose pytest run
 * produced no report; its prompt forbids changes to tests/ (ChainLens enforces it); its Architect
 * writes Appendix C's requirement document.
 */
export const DEFAULT_SWECI_POLICIES: SweciPolicies = {
  failedRun: 'discard',
  testChanges: 'reset',
  requirement: 'appendix-c',
};

/** The task's test paths: what SWE-CI's pytest runs (`pytest tests`) and its prompt protects. */
export const SWECI_TEST_PATHS: readonly string[] = ['tests'];

export function policiesOf(task: SweciTask): SweciPolicies {
  return { ...DEFAULT_SWECI_POLICIES, ...task.policies };
}

/**
 * The test run of the code the next iteration starts from: the latest iteration whose code was
 * not discarded, or the base. SWE-CI's `current` folder: it holds the last kept epoch's code and
 * its report, which the Architect's non-passed folder is made from.
 */
export function startingRun(record: SweciRecord): SweciTestRun {
  for (let i = record.iterations.length - 1; i >= 0; i--)
    if (!record.iterations[i].discarded) return record.iterations[i].run;
  return record.task.initial;
}

/** The commit whose code a discarded iteration's successor starts from: the last kept one, or the base. */
export function lastKeptCommit(record: SweciRecord): string {
  for (let i = record.iterations.length - 1; i >= 0; i--) {
    const it = record.iterations[i];
    if (!it.discarded && it.run.usable) return it.run.commit;
  }
  return record.task.baseCommit;
}

/**
 * Of the paths git reports changed under the test paths, those a Programmer changed: bytecode
 * caches that running Python leaves (`__pycache__`, `.pyc`) are not a change to the tests.
 */
export function testPathChanges(paths: readonly string[]): string[] {
  return paths.filter((p) => !/(^|\/)__pycache__(\/|$)/.test(p) && !p.endsWith('.pyc')).sort();
}

/** The paths a git diff touches (its `diff --git a/<p> b/<p>` headers), in order, once each. */
export function pathsOfDiff(diff: string): string[] {
  const paths = [...diff.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)].map((m) => m[2]);
  return [...new Set(paths)];
}
