// Batches in VS Code: Run Batch… (the same use case as `chainlens batch`, with its progress in a
// cancellable notification through withProgress) and Open Batch Results… (the Results view).
import * as vscode from 'vscode';
import type { RunMode } from '../../protocol/run';
import { openOrCreateRunDir, planBatch } from '../../app/batch/planBatch';
import { defaultWorkers, runBatch } from '../../app/batch/runBatch';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';
import { requireTrust } from '../trust';
import { showBatchResults } from './resultsPanel';

async function pickFolder(title: string): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
  });
  return picked?.[0]?.fsPath;
}

export function registerBatch(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const { output } = services;
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'chainlens.batch.openResults',
      guarded(output, 'Could not open the batch results', async (runDir?: string) => {
        const dir = typeof runDir === 'string' ? runDir : await pickFolder('Batch run directory');
        if (dir) showBatchResults(dir, output);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.batch.run',
      guarded(output, 'The batch failed', async () => {
        requireTrust('Running a batch');
        const dataset = await vscode.window.showOpenDialog({
          title: 'Dataset files (ChainSWE JSONL/JSON, SWE-bench instances, Parquet)',
          canSelectMany: true,
          filters: { Datasets: ['jsonl', 'json', 'parquet'] },
        });
        if (!dataset?.length) return;
        const source = await vscode.window.showQuickPick(['gold', 'Predictions file…', 'Trajectory folder…'], {
          title: 'Prediction source',
        });
        if (!source) return;
        let sourceSpec = 'gold';
        if (source !== 'gold') {
          const picked = await vscode.window.showOpenDialog({
            title: source,
            canSelectFiles: source.startsWith('Predictions'),
            canSelectFolders: source.startsWith('Trajectory'),
          });
          if (!picked?.[0]) return;
          sourceSpec = picked[0].fsPath;
        }
        const repo = await pickFolder('Repository holding the chains’ base commits');
        if (!repo) return;
        const runDir = await pickFolder('Run directory (a new or empty folder, or a batch to resume)');
        if (!runDir) return;
        const modes: RunMode[] = ['oracle', 'seq'];
        const planned = await planBatch({
          cwd: repo,
          runDir,
          dataset: dataset.map((u) => u.fsPath),
          sources: sourceSpec === 'gold' ? ['gold'] : [sourceSpec, 'gold'],
          modes,
          repos: [repo],
        });
        openOrCreateRunDir(planned, runDir);
        const outcome = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'ChainLens batch', cancellable: true },
          async (progress, token) => {
            const abort = new AbortController();
            token.onCancellationRequested(() => abort.abort());
            let last = 0;
            return runBatch({
              runDir,
              workers: defaultWorkers(),
              signal: abort.signal,
              onEvent: (e) => {
                if (e.event === 'start') {
                  last = e.done;
                  progress.report({
                    message: `${e.done}/${e.total} steps recorded`,
                    increment: (e.done / Math.max(1, e.total)) * 100,
                  });
                } else if (e.event === 'step') {
                  progress.report({
                    message: `${e.done}/${e.total}: ${e.chain_id} ${e.source} ${e.mode} step ${e.order} ${e.status}`,
                    increment: ((e.done - last) / e.total) * 100,
                  });
                  last = e.done;
                }
              },
              onNote: (line) => output.info(line),
            });
          },
        );
        output.info(`batch ${runDir}: ${outcome.ranHere} step(s) evaluated${outcome.cancelled ? ' (cancelled)' : ''}`);
        showBatchResults(runDir, output);
      }),
    ),
  );
}
