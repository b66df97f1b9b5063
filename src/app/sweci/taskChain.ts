import type { Chain } from '../../protocol/chain';
import type { SweciTask } from '../../protocol/sweci';

/** The step id of iteration `i` of a task (what `status` and the chain tree show). */
export function iterationInstanceId(taskId: string, iteration: number): string {
  return `${taskId}.iteration-${iteration}`;
}

/**
 * A SWE-CI task as a ChainLens chain: one step per iteration up to the limit, in Seq mode, each
 * starting where the previous one ended. A step has no gold and no test patch (the target's tests
 * are in the base commit, as in SWE-CI); its FAIL_TO_PASS is the task's initial gap and its
 * PASS_TO_PASS the tests the base passes, so the Testing view shows both.
 */
export function taskChain(task: SweciTask, gap: readonly string[]): Chain {
  return {
    id: `sweci-${task.taskId}`,
    repo: task.taskId,
    baseCommit: task.baseCommit,
    dockerImage: task.image,
    format: 'swe-ci',
    steps: Array.from({ length: task.limit }, (_, k) => ({
      order: k + 1,
      instanceId: iterationInstanceId(task.taskId, k + 1),
      problemStatement:
        `SWE-CI task ${task.taskId}, iteration ${k + 1} of at most ${task.limit}. ` +
        'Architect: read the test gap (`chainlens sweci gap`) and write a requirement of at most five items. ' +
        'Programmer: change the code so the requirement holds; leave tests/ alone. Then submit the iteration (`chainlens sweci submit`).',
      goldPatch: '',
      testPatch: '',
      failToPass: [...gap],
      passToPass: [...task.initial.passed],
      testCmd: task.testCmd,
    })),
  };
}
