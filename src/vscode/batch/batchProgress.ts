// One batch run in VS Code: runBatch (the use case `chainlens batch` calls) in a cancellable
// progress notification, its records fed to the Runs view as they are written. Cancel stops the
// running steps (their containers are removed) and keeps every record: Resume continues it.
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { defaultWorkers, runBatch, type BatchOutcome } from '../../app/batch/runBatch';
import { UserError } from '../../core/util/errors';
import type { BatchRuns } from './batchRuns';

export interface BatchProgressOptions {
  readonly retryFailed?: boolean;
  readonly workers?: number;
}

export async function runBatchWithProgress(
  runs: BatchRuns,
  runDir: string,
  output: vscode.LogOutputChannel,
  o: BatchProgressOptions = {},
): Promise<BatchOutcome> {
  if (runs.isRunningHere(runDir))
    throw new UserError(`the batch in ${runDir} is already running in this window`, 'state');
  await runs.remember(runDir);
  const title = `ChainLens batch ${basename(runDir)}${o.retryFailed ? ' (retrying infra failures)' : ''}`;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const cancel = token.onCancellationRequested(() => {
        output.info(`batch ${runDir}: cancelling (running steps stop, their containers are removed; records are kept)`);
        abort.abort();
      });
      let reported = 0;
      const report = (done: number, total: number, message: string) => {
        const at = (done / Math.max(1, total)) * 100;
        progress.report({ message, increment: at - reported });
        reported = at;
      };
      runs.started(runDir);
      try {
        return await runBatch({
          runDir,
          workers: o.workers ?? defaultWorkers(),
          retryFailed: o.retryFailed,
          signal: abort.signal,
          onRecord: (r) => runs.recorded(runDir, r),
          onEvent: (e) => {
            if (e.event === 'start') report(e.done, e.total, `${e.done}/${e.total} steps recorded`);
            else if (e.event === 'step')
              report(
                e.done,
                e.total,
                `${e.done}/${e.total}: ${e.chain_id} ${e.source} ${e.mode} step ${e.order} ${e.status}`,
              );
          },
          onNote: (line) => output.info(line),
        });
      } finally {
        cancel.dispose();
        runs.ended(runDir);
      }
    },
  );
  const infra = outcome.records.filter((r) => r.infra_failure).length;
  const total =
    outcome.manifest.chains.reduce((n, c) => n + c.steps.length, 0) *
    outcome.manifest.sources.length *
    outcome.manifest.modes.length;
  const summary = `batch ${basename(runDir)}: ${outcome.ranHere} step(s) evaluated, ${outcome.records.length}/${total} recorded${infra ? `, ${infra} infra failure(s)` : ''}`;
  output.info(`${summary}${outcome.cancelled ? ' (cancelled)' : ''} in ${runDir}`);
  if (outcome.cancelled)
    void vscode.window.showInformationMessage(`${summary}. Cancelled: Resume in the Runs view continues it.`);
  return outcome;
}
