import { regressionsBetween, testGap } from '../../core/sweci';
import { UserError } from '../../core/util/errors';
import type { SweciIteration, SweciRecord } from '../../protocol/sweci';
import { runTaskTests } from '../../infra/sweci/testRun';
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
    await submitStep({ dir: opened.ws.dir, state: opened.state, chain: opened.chain, workspace: opened.ws });
    record = await gradePending(opened, req);
    return record;
  });
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
    const before = record.iterations.length ? record.iterations[record.iterations.length - 1].run : record.task.initial;
    const passing = new Set(run.passed);
    const entry: SweciIteration = {
      iteration,
      run,
      regressions: regressionsBetween(before.passed, passing),
      gap: testGap(record.task.oracle.passed, passing),
      architect: req.architect ?? null,
      programmer: req.programmer ?? null,
    };
    const stopped = entry.gap.length === 0 ? 'gap-closed' : iteration >= record.task.limit ? 'limit' : null;
    record = { ...record, iterations: [...record.iterations, entry], stopped };
    o.store.write(record);
    req.log?.(
      `iteration ${iteration}: ${run.usable ? `${run.passed.length} passing` : `tests did not run: ${run.problem}`}, ` +
        `${entry.regressions.length} regression(s), gap ${entry.gap.length}${stopped ? ` — stopped (${stopped})` : ''}`,
    );
  }
  return record;
}
