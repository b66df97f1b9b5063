import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import type { GradingProfile } from '../../protocol/grading';
import { chainReport } from '../../core/metrics/chainReport';
import { openWorkspace } from '../../infra/runs/workspace';
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
  return chainReport({ chainId: chain.id, runId: state.runId, mode: state.mode, profile, steps });
}
