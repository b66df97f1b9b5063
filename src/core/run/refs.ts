/** Where a run keeps its step boundaries: refs/chainlens/<run>/step-<k>/{start,end}. */
export const stepRef = (runId: string, step: number, edge: 'start' | 'end'): string =>
  `refs/chainlens/${runId}/step-${step}/${edge}`;

/** Cached Oracle states: base + gold test_patch and patch of steps 1..k-1. */
export const oracleRef = (runId: string, step: number): string => `refs/chainlens/${runId}/oracle/step-${step}`;

export const runBranch = (runId: string): string => `chainlens/${runId}`;

/**
 * Message of the stash ChainLens makes of uncommitted work before it starts run `runId` in a work
 * tree; `status` finds such stashes by STASH_PREFIX (a kill can lose the note that named it).
 */
export const STASH_PREFIX = 'chainlens: uncommitted work before starting run ';
export const stashMessage = (runId: string): string => `${STASH_PREFIX}${runId}`;
