import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import type { GradingProfile } from '../../protocol/grading';
import { chainReport } from '../../core/metrics/chainReport';
import { conditionOf } from '../../core/codethread/conditions';
import { openWorkspace } from '../../infra/run/workspace';
import { EvalStore } from '../../infra/evaluation/evalStore';

/**
 * The run's report (the `chainlens eval --report` shape) from the latest evaluation of each
 * submitted step; steps never evaluated are left out (`steps` says which are in).
 */
export async function exportRunReport(dir: string, profile: GradingProfile = 'swebench-v5'): Promise<ChainEvaluation> {
  const ws = await openWorkspace(dir);
  const { state, chain } = await ws.engine.open();
  const index = new EvalStore(ws.store.root).readIndex(state.runId);
  const steps: StepEvaluation[] = [];
  for (const s of state.steps) {
    const e = index[`${s.order}:submitted`];
    if (e) steps.push(e);
  }
  const report = chainReport({
    chainId: chain.id,
    runId: state.runId,
    mode: state.mode,
    profile,
    steps,
    chainOrders: chain.steps.map((s) => s.order),
  });
  // A CodeThread task's condition, from the run's authors (docs/reference/codethread.md).
  const condition = chain.codethread ? conditionOf(state.steps.map((s) => s.author)) : null;
  return condition ? { ...report, condition } : report;
}
