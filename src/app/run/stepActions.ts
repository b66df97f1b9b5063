// What a person does to an open run besides starting it: submit the current step, or start a new
// run of the same chain, authors and recorded patches in the other mode.
import type { RunMode, RunState } from '../../protocol/run';
import type { ChainRunSnapshot } from './snapshot';

export interface RunChange {
  state: RunState;
  notes: string[];
}

export async function submitStep(run: ChainRunSnapshot): Promise<RunChange & { submitted: number }> {
  return run.workspace.engine.submit();
}

/** A new run of the same chain, authors and recorded patches, in `mode` (the CLI's re-checkout). */
export async function switchMode(run: ChainRunSnapshot, mode: RunMode): Promise<RunChange> {
  const { state: old, chain, workspace } = run;
  return workspace.engine.start({
    chain,
    chainFile: old.chainFile,
    repoSource: old.repoSource,
    mode,
    authors: old.steps.map((s) => s.author),
    recorded: workspace.store.loadRecorded(old.runId),
  });
}
