import { join } from 'node:path';
import { UserError } from '../../core/util/errors';
import type { SweciRecord } from '../../protocol/sweci';
import { writeFileAtomic } from '../../infra/files';
import { runRoleCommand } from '../../infra/sweci/roleCommand';
import type { SweciStore } from '../../infra/sweci/sweciStore';
import { gapSummaryJsonl, readGap } from './gap';
import { currentIteration, openTask } from './openTask';
import { assertRequirementShape, readRequirement } from './requirement';
import { gradePendingIterations, submitIteration } from './submitIteration';

export interface RunLoopRequest {
  dir: string;
  /** Shell commands of the two roles (run in the work tree). */
  architect: string;
  programmer: string;
  /** Recorded as who wrote each iteration's requirement and code (default: `command`). */
  agentName?: string;
  /** Per role call; SWE-CI's default is 3600 s. */
  roleTimeoutS?: number;
  /** Stop after this many iterations of this call (default: until the loop stops). */
  iterations?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  onOutput?: (chunk: string) => void;
}

/**
 * SWE-CI's CI loop over the run in `dir`: per iteration the Architect command gets the gap
 * (SWECI_GAP: a summary.jsonl like SWE-CI's non-passed folder) and writes the requirement
 * (SWECI_REQUIREMENT); the Programmer command reads it and edits the work tree in place; then
 * the iteration is submitted and graded. It stops at the limit or when the gap is closed, and
 * picks up where it was after an interruption (iterations already graded stay).
 */
export async function runLoop(req: RunLoopRequest): Promise<SweciRecord> {
  const log = req.log ?? (() => {});
  let done = 0;
  for (;;) {
    // A submitted iteration a kill left ungraded is graded first: the next one starts after it.
    await gradePendingIterations(req.dir, log);
    const { record, store } = await openTask(req.dir, log);
    const iteration = currentIteration(record);
    if (iteration === null || (req.iterations !== undefined && done >= req.iterations)) return record;
    const gap = await readGap(req.dir);
    const gapFile = store.folder(record.runId, `iteration-${iteration}`, 'non-passed', 'summary.jsonl');
    writeFileAtomic(gapFile, gapSummaryJsonl(gap));
    const requirement = store.requirementPath(record.runId, iteration);
    const env = {
      SWECI_TASK: record.task.taskId,
      SWECI_ITERATION: String(iteration),
      SWECI_LIMIT: String(record.task.limit),
      SWECI_GAP: gapFile,
      SWECI_REQUIREMENT: requirement,
    };
    const timeoutS = req.roleTimeoutS ?? 3600;
    const pidFile = rolePidFile(store, record.runId, iteration);
    log(`iteration ${iteration}: architect (gap ${gap.entries.length})`);
    await runRoleCommand({
      role: 'architect',
      command: req.architect,
      cwd: req.dir,
      env,
      timeoutS,
      signal: req.signal,
      onOutput: req.onOutput,
      pidFile,
    });
    const written = await readRequirement(req.dir, iteration);
    if (!written.text?.trim())
      throw new UserError(
        `iteration ${iteration}: the architect command wrote no requirement to ${requirement}; nothing was submitted`,
        'input',
      );
    // Refused before the Programmer runs: a malformed requirement is the Architect's failure.
    assertRequirementShape(record, iteration, written.text, requirement);
    log(`iteration ${iteration}: programmer`);
    await runRoleCommand({
      role: 'programmer',
      command: req.programmer,
      cwd: req.dir,
      env,
      timeoutS,
      signal: req.signal,
      onOutput: req.onOutput,
      pidFile,
    });
    await submitIteration({
      dir: req.dir,
      iteration,
      architect: req.agentName ?? 'command',
      programmer: req.agentName ?? 'command',
      signal: req.signal,
      log,
    });
    done++;
  }
}

/** Where the running role's process group is noted (the iteration's folder, outside the work tree). */
export function rolePidFile(store: SweciStore, runId: string, iteration: number): string {
  return join(store.iterationDir(runId, iteration), 'role.pid');
}
