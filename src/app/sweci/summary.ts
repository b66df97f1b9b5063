import { SweciStore } from '../../infra/sweci/sweciStore';
import type { SweciStop } from '../../protocol/sweci';

export interface SweciRunSummary {
  taskId: string;
  /** Graded iterations so far. */
  iterations: number;
  limit: number;
  passing: number;
  p0: number;
  pStar: number;
  gap: number;
  /** Iterations that broke a test that passed before, by number. */
  regressionIterations: number[];
  /** Iterations whose tests did not run and whose code was discarded (docs/sweci.md). */
  discardedIterations: number[];
  /** Iterations whose Programmer changed the task's tests (reset before grading). */
  testsResetIterations: number[];
  stopped: SweciStop | null;
}

/** What `status` and the VS Code views show of a SWE-CI run; null for any other run. */
export function sweciSummary(stateRoot: string, runId: string): SweciRunSummary | null {
  const record = new SweciStore(stateRoot).read(runId);
  if (!record) return null;
  const last = record.iterations[record.iterations.length - 1];
  const initial = new Set(record.task.initial.passed);
  return {
    taskId: record.task.taskId,
    iterations: record.iterations.length,
    limit: record.task.limit,
    passing: last ? last.run.passed.length : record.task.initial.passed.length,
    p0: record.task.initial.passed.length,
    pStar: record.task.oracle.passed.length,
    gap: last ? last.gap.length : record.task.oracle.passed.filter((t) => !initial.has(t)).length,
    regressionIterations: record.iterations.filter((it) => it.regressions.length).map((it) => it.iteration),
    discardedIterations: record.iterations.filter((it) => it.discarded).map((it) => it.iteration),
    testsResetIterations: record.iterations.filter((it) => it.testChangesReset).map((it) => it.iteration),
    stopped: record.stopped,
  };
}

/** One line for a person. */
export function sweciSummaryLine(s: SweciRunSummary): string {
  return (
    `sweci  task ${s.taskId}: ${s.iterations} of at most ${s.limit} iterations graded, ${s.passing} passing ` +
    `(p0 ${s.p0}, p* ${s.pStar}), gap ${s.gap}` +
    (s.regressionIterations.length
      ? `, regressions in iteration ${s.regressionIterations.join(', ')}`
      : ', no regression') +
    (s.discardedIterations.length ? `, code discarded in iteration ${s.discardedIterations.join(', ')}` : '') +
    (s.testsResetIterations.length ? `, tests reset in iteration ${s.testsResetIterations.join(', ')}` : '') +
    (s.stopped ? `; stopped (${s.stopped})` : '')
  );
}
