import { UserError } from '../../core/util/errors';
import type { Chain } from '../../protocol/chain';
import type { RunState } from '../../protocol/run';
import type { SweciRecord } from '../../protocol/sweci';
import { openWorkspace, type Workspace } from '../../infra/run/workspace';
import { SweciStore } from '../../infra/sweci/sweciStore';

export interface OpenTask {
  ws: Workspace;
  state: RunState;
  chain: Chain;
  store: SweciStore;
  record: SweciRecord;
}

/** The SWE-CI run of the work tree at `dir`; a work tree whose run is not one is an error saying so. */
export async function openTask(dir: string, log?: (line: string) => void, recover = true): Promise<OpenTask> {
  const ws = await openWorkspace(dir, log);
  const { state, chain } = recover ? await ws.engine.open() : ws.engine.read();
  const store = new SweciStore(ws.store.root);
  const record = store.read(state.runId);
  if (!record)
    throw new UserError(
      `the run '${state.runId}' in ${ws.dir} is not a SWE-CI run (start one with \`chainlens sweci init\`)`,
      'state',
    );
  return { ws, state, chain, store, record };
}

/** The iteration being worked on now (1-based), or null when the loop has stopped. */
export function currentIteration(record: SweciRecord): number | null {
  if (record.stopped) return null;
  return record.iterations.length + 1;
}
