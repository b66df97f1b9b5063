import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StepEvaluationSchema, type StepEvaluation } from '../../protocol/evaluation';
import { writeFileAtomic } from '../files';

/**
 * Evaluations of a run: every one keeps its own folder (log, report.json, eval.json) under
 * `<state folder>/runs/<run>/evals/` (outside the work tree, docs/run-state.md), and `<run>.evals.json` indexes the latest per step and
 * source, so the UI shows results without re-reading logs. Atomic writes: a recorded result is
 * never lost to a crash.
 */
export class EvalStore {
  constructor(private readonly chainlensDir: string) {}

  evalDir(runId: string, step: number, at: Date): string {
    const stamp = at.toISOString().replace(/[:.]/g, '-');
    return join(this.chainlensDir, 'runs', runId, 'evals', `step-${step}-${stamp}`);
  }

  private indexPath(runId: string): string {
    return join(this.chainlensDir, 'runs', `${runId}.evals.json`);
  }

  /** Latest evaluation per step, `${step}:${source}` -> StepEvaluation. */
  readIndex(runId: string): Record<string, StepEvaluation> {
    const path = this.indexPath(runId);
    if (!existsSync(path)) return {};
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const out: Record<string, StepEvaluation> = {};
    for (const [key, value] of Object.entries(raw)) {
      const parsed = StepEvaluationSchema.safeParse(value);
      if (parsed.success) out[key] = parsed.data;
    }
    return out;
  }

  record(runId: string, evaluation: StepEvaluation, evalDir: string): void {
    writeFileAtomic(join(evalDir, 'eval.json'), JSON.stringify(evaluation, null, 2) + '\n');
    const index = this.readIndex(runId);
    index[`${evaluation.order}:${evaluation.source}`] = evaluation;
    writeFileAtomic(this.indexPath(runId), JSON.stringify(index, null, 2) + '\n');
  }
}
