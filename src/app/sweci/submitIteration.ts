import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { regressionsBetween, testGap } from '../../core/sweci';
import { lastKeptCommit, pathsOfDiff, policiesOf, startingRun, SWECI_TEST_PATHS } from '../../core/sweci/policies';
import { UserError } from '../../core/util/errors';
import type { SweciIteration, SweciRecord } from '../../protocol/sweci';
import { runTaskTests } from '../../infra/sweci/testRun';
import { changedTestPaths, resetTestPaths, restoreCode } from '../../infra/sweci/workTreeCode';
import { submitStep } from '../run/stepActions';
import { currentIteration, openTask, type OpenTask } from './openTask';

export interface SubmitIterationRequest {
  dir: string;
  /** Who wrote the requirement and the code (kept in the record). */
  architect?: string;
  programmer?: string;
  /** The iteration the caller believes it submits; refused when the run is elsewhere. */
  iteration?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/**
 * Ends the current iteration: commits the work tree as the step's end (the run moves to the next
 * step, which starts there: no reset), runs the target's tests on it in the task's image, and
 * records the passing set, the regressions against the state before and the remaining gap. The
 * loop stops when the gap is closed or at the limit. A submitted step that was never graded (a
 * process killed in between) is graded first, so no iteration is lost.
 */
export async function submitIteration(req: SubmitIterationRequest): Promise<SweciRecord> {
  const opened = await openTask(req.dir, req.log);
  return opened.ws.store.hold('sweci submit', async () => {
    let record = await gradePending(opened, req);
    const now = currentIteration(record);
    if (now === null)
      throw new UserError(
        `the SWE-CI loop of task '${record.task.taskId}' has stopped (${record.stopped === 'gap-closed' ? 'the gap is closed' : `the limit of ${record.task.limit} iterations is reached`}); score it with \`chainlens sweci score\``,
        'state',
      );
    if (req.iteration !== undefined && req.iteration !== now)
      throw new UserError(`iteration ${req.iteration} is not the current one (${now}); nothing was submitted`, 'state');
    await guardTestPaths(opened, record, now);
    await submitStep({ dir: opened.ws.dir, state: opened.state, chain: opened.chain, workspace: opened.ws });
    record = await gradePending(opened, req);
    return record;
  });
}

/**
 * SWE-CI's tests/ stay as the task gave them (its prompt forbids the Programmer to touch them):
 * a change under the test paths is reset before the commit and kept as a diff in the iteration's
 * folder, or, under the `refuse` policy, nothing is submitted and the paths are named.
 */
async function guardTestPaths(o: OpenTask, record: SweciRecord, iteration: number): Promise<void> {
  const git = o.ws.git;
  const paths = await changedTestPaths(git, record.task.baseCommit, SWECI_TEST_PATHS);
  if (paths.length === 0) return;
  const list = paths.length > 5 ? `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more` : paths.join(', ');
  if (policiesOf(record.task).testChanges === 'refuse')
    throw new UserError(
      `iteration ${iteration}: the Programmer changed the task's tests (${list}); SWE-CI's tests/ must stay as the task gave them. Undo those changes and submit again; nothing was submitted`,
      'state',
    );
  await resetTestPaths(git, record.task.baseCommit, paths, testResetDiffPath(o, record, iteration));
}

/** Where an iteration's reset test changes are kept; grading finds them there, also after a crash. */
function testResetDiffPath(o: OpenTask, record: SweciRecord, iteration: number): string {
  return join(o.store.iterationDir(record.runId, iteration), 'tests-reset.diff');
}

function testChangesReset(o: OpenTask, record: SweciRecord, iteration: number): SweciIteration['testChangesReset'] {
  const diffPath = testResetDiffPath(o, record, iteration);
  if (!existsSync(diffPath)) return undefined;
  return { paths: pathsOfDiff(readFileSync(diffPath, 'utf8')), diffPath };
}

/**
 * Grades what a kill left submitted but ungraded (the loop and a batch call it before an
 * iteration starts, so that iteration is the one after it). Returns the record.
 */
export async function gradePendingIterations(dir: string, log?: (line: string) => void): Promise<SweciRecord> {
  const opened = await openTask(dir, log);
  return opened.ws.store.hold('sweci submit', () => gradePending(opened, { dir, log }));
}

/** Grades every submitted step that has no iteration record yet, in order, and records each. */
async function gradePending(o: OpenTask, req: SubmitIterationRequest): Promise<SweciRecord> {
  let record = o.store.read(o.state.runId)!;
  const { state } = o.ws.engine.read();
  for (const step of state.steps) {
    if (record.stopped || step.order <= record.iterations.length) continue;
    if (step.status !== 'submitted' || !step.end) break;
    const iteration = step.order;
    req.log?.(`iteration ${iteration}: running the tests in ${record.task.image}`);
    const run = await runTaskTests({
      image: record.task.image,
      repo: o.ws.dir,
      commit: step.end,
      testCmd: record.task.testCmd,
      timeoutS: record.task.timeoutS,
      logDir: o.store.iterationDir(record.runId, iteration),
      runId: record.runId,
      signal: req.signal,
    });
    if (run.problem === 'the test run was cancelled')
      throw new UserError(
        `iteration ${iteration} was submitted but its tests were cancelled; submit again to grade it`,
        'state',
      );
    // Against the code this iteration started from: after a discarded iteration, the kept one.
    const before = startingRun(record);
    const passing = new Set(run.passed);
    const reset = testChangesReset(o, record, iteration);
    const entry: SweciIteration = {
      iteration,
      run,
      regressions: regressionsBetween(before.passed, passing),
      gap: testGap(record.task.oracle.passed, passing),
      architect: req.architect ?? null,
      programmer: req.programmer ?? null,
      ...(reset ? { testChangesReset: reset } : {}),
    };
    const stopped = entry.gap.length === 0 ? 'gap-closed' : iteration >= record.task.limit ? 'limit' : null;
    if (!run.usable && !stopped && policiesOf(record.task).failedRun === 'discard')
      entry.discarded = await discardCode(o, record, iteration);
    record = { ...record, iterations: [...record.iterations, entry], stopped };
    o.store.write(record);
    req.log?.(
      `iteration ${iteration}: ${run.usable ? `${run.passed.length} passing` : `tests did not run: ${run.problem}`}, ` +
        `${entry.regressions.length} regression(s), gap ${entry.gap.length}${stopped ? ` — stopped (${stopped})` : ''}` +
        (entry.discarded
          ? `; its code is discarded, iteration ${iteration + 1} starts from ${entry.discarded.restoredFrom.slice(0, 10)}`
          : '') +
        (entry.testChangesReset
          ? `; the Programmer's changes to ${entry.testChangesReset.paths.join(', ')} were reset`
          : ''),
    );
  }
  return record;
}

/**
 * SWE-CI's run.py keeps an epoch's code only when its pytest run produced a report; otherwise the
 * next epoch starts from the last kept code. Here: that code is put back in the work tree and
 * committed on the run's branch, so the next iteration starts from it. Work of a person's not
 * yet committed (a crash, then edits) is never overwritten: that is refused, naming it.
 */
async function discardCode(
  o: OpenTask,
  record: SweciRecord,
  iteration: number,
): Promise<NonNullable<SweciIteration['discarded']>> {
  const git = o.ws.git;
  const restoredFrom = lastKeptCommit(record);
  if (await git.isDirty())
    throw new UserError(
      `iteration ${iteration}'s tests did not run, so its code is to be discarded and ${restoredFrom.slice(0, 10)}'s restored, but ${o.ws.dir} has uncommitted changes; commit or stash them and run the command again`,
      'state',
    );
  const restoredAs = await restoreCode(
    git,
    restoredFrom,
    `chainlens sweci: iteration ${iteration}'s tests did not run; its code is discarded and ${restoredFrom.slice(0, 10)}'s restored (as SWE-CI's run.py)`,
  );
  return { restoredFrom, restoredAs };
}
