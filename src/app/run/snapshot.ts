// The run of one work tree as both front ends hold it: its state, the chain it runs and the
// work tree's git, store and engine. The editor keeps one per window; the CLI opens one per command.
import type { Chain } from '../../protocol/chain';
import type { RunState } from '../../protocol/run';
import type { Workspace } from '../../infra/run/workspace';

export interface ChainRunSnapshot {
  /** Top of the work tree (its run state lives in the per-user data dir, docs/run-state.md). */
  readonly dir: string;
  readonly state: RunState;
  /** The chain as it was when the run started (snapshotted beside the state). */
  readonly chain: Chain;
  /** git (refs/chainlens/<run>/step-<k>/{start,end}), run store and engine of that work tree. */
  readonly workspace: Workspace;
}
