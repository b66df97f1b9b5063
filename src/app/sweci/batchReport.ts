import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startingRun } from '../../core/sweci/policies';
import { sweciBatchReport, type SweciBatchReport, type SweciBatchRun } from '../../core/sweci/observations';
import type { SweciBatchManifest } from '../../protocol/sweciBatch';
import { withDataRoot } from '../../infra/run/stateDir';
import { SweciBatchDir } from '../../infra/sweci/batchDir';
import { linesChanged } from '../../infra/sweci/linesChanged';
import type { PreparedTask } from './initTask';
import { openTask } from './openTask';
import { sweciBatchStateRoot } from './datasetBatch';

/**
 * The report of a SWE-CI batch run directory, from what is recorded (an unfinished batch too):
 * every agent's run of every task that has started, scored and compared (src/core/sweci/observations.ts),
 * with the lines each agent changed against the human's diff current → target.
 */
export async function sweciBatchRunReport(
  runDir: string,
  gamma = 1,
): Promise<{ manifest: SweciBatchManifest; report: SweciBatchReport }> {
  const dir = new SweciBatchDir(runDir);
  const manifest = dir.readManifest();
  const runs = await withDataRoot(sweciBatchStateRoot(dir.root), async () => {
    const found: SweciBatchRun[] = [];
    for (const taskId of manifest.tasks) {
      const preparedFile = join(dir.preparedDir(taskId), 'prepared.json');
      const prepared = existsSync(preparedFile)
        ? (JSON.parse(readFileSync(preparedFile, 'utf8')) as PreparedTask)
        : null;
      const human = prepared
        ? await linesChanged(prepared.repoDir, prepared.task.currentSha, prepared.task.targetSha).catch(() => null)
        : null;
      for (const agent of manifest.agents) {
        const work = dir.workTree(agent.name, taskId);
        if (!existsSync(work)) continue;
        let record;
        try {
          record = (await openTask(work, undefined, false)).record;
        } catch {
          continue; // a start a kill cut short: nothing recorded yet
        }
        const mine = await linesChanged(work, record.task.baseCommit, startingRun(record).commit).catch(() => null);
        found.push({
          agent: agent.name,
          record,
          ...(human !== null && mine !== null ? { lines: { agent: mine, human } } : {}),
        });
      }
    }
    return found;
  });
  return { manifest, report: sweciBatchReport(runs, gamma) };
}
