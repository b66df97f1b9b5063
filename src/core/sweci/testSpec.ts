import type { ContainerSpec } from '../evaluation/stepSpec';

/**
 * The container of one SWE-CI test run (docs/sweci.md): the task's image, the state's files copied
 * in at `commit` (nothing else applied), and the task's test command. No step is graded: the log is
 * read for passing and failing tests (testLog.ts), so no parser, eval type or F2P/P2P is chosen.
 */
export function sweciTestSpec(image: string, commit: string, testCmd: string): ContainerSpec {
  return {
    image,
    baseCommit: commit,
    repoPath: { kind: 'copy-in' },
    testPatches: [],
    testCmd,
    scriptShape: 'python',
    harness: 'v5',
  };
}
