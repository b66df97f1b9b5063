/** Where a run keeps its step boundaries: refs/chainlens/<run>/step-<k>/{start,end}. */
export const stepRef = (runId: string, step: number, edge: 'start' | 'end'): string =>
  `refs/chainlens/${runId}/step-${step}/${edge}`;

/** Cached Oracle states: base + gold test_patch and patch of steps 1..k-1. */
export const oracleRef = (runId: string, step: number): string => `refs/chainlens/${runId}/oracle/step-${step}`;

export const runBranch = (runId: string): string => `chainlens/${runId}`;
