import type { StepGrading } from '../../protocol/codethread';
import type { GradeResult } from '../../protocol/grading';
import type { StepJudge } from '../evaluation/verdict';
import { pr1Filter } from './filter';

/** A step graded by CodeThread's PR1 filter: resolved when the filter passes, and its outcome kept. */
export const pr1FilterJudge = (grade: GradeResult) => {
  // docs/reference/codethread.md: every P2P passes and every F2P still fails.
  const filter = pr1Filter(grade.tests_status);
  return { resolved: filter.passed, filter };
};

/** The judge of a step graded `grading`: none (the benchmark's rule) for `resolve`. */
export function judgeOf(grading: StepGrading): StepJudge<{ filter?: ReturnType<typeof pr1Filter> }> | undefined {
  return grading === 'pr1-filter' ? pr1FilterJudge : undefined;
}
