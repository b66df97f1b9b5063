// Browse Trajectories in Folder…: a folder of agent runs as a list (instance, exit status, steps,
// cost, resolved when a report lies beside them), like the SWE-agent and mini-swe-agent
// inspectors; picking one opens it in the viewer, and Next / Previous Trajectory in Folder walk
// the list from the one shown.
import { relative } from 'node:path';
import * as vscode from 'vscode';
import { openDialog } from '../util/pickerStart';
import { describeRow, type TrajectoryFolderRow } from '../../core/trajectories/folderRows';
import { readTrajectoryFolder, type TrajectoryFolder } from '../../infra/trajectories/trajectoryFolder';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';

interface RowItem extends vscode.QuickPickItem {
  readonly row: TrajectoryFolderRow;
}

export function registerTrajectoryFolderList(
  context: vscode.ExtensionContext,
  services: ChainLensServices,
  open: (file: string, trajectory: number) => void,
  workerScript: string,
): void {
  let list: TrajectoryFolder | undefined;
  let at = -1;

  const show = (k: number): void => {
    if (!list) throw new Error('Browse a folder of trajectories first (ChainLens: Browse Trajectories in Folder…).');
    if (k < 0 || k >= list.rows.length) {
      void vscode.window.setStatusBarMessage(
        `ChainLens: no ${k < 0 ? 'previous' : 'next'} trajectory in the folder`,
        3000,
      );
      return;
    }
    at = k;
    const row = list.rows[k];
    void vscode.window.setStatusBarMessage(
      `ChainLens: trajectory ${k + 1} of ${list.rows.length}: ${row.instance}`,
      4000,
    );
    open(row.file, row.index);
  };

  const pick = async (folder: TrajectoryFolder): Promise<void> => {
    const items: RowItem[] = folder.rows.map((row) => ({
      label: row.resolved === null ? row.instance : `$(${row.resolved ? 'pass' : 'error'}) ${row.instance}`,
      description: describeRow(row),
      detail: `${relative(folder.folder, row.file)}${row.format ? ` · ${row.format}` : ''}`,
      row,
    }));
    const chosen = await vscode.window.showQuickPick(items, {
      title: `Trajectories in ${folder.folder} (${folder.rows.length}${folder.reports.length ? `; results from ${folder.reports.map((r) => relative(folder.folder, r)).join(', ')}` : ''})`,
      placeHolder: 'Instance, exit status, steps, cost, resolved',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (chosen) show(folder.rows.indexOf(chosen.row));
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(
      'chainlens.browseTrajectoryFolder',
      guarded(services.output, 'Browse Trajectories in Folder', async (arg?: unknown) => {
        const uri =
          arg instanceof vscode.Uri
            ? arg
            : (
                await openDialog({
                  canSelectFiles: false,
                  canSelectFolders: true,
                  canSelectMany: false,
                  title: 'Folder of agent trajectories',
                })
              )?.[0];
        if (!uri) return;
        if (uri.scheme !== 'file') throw new Error(`Only folders on disk can be browsed (${uri.toString()}).`);
        const folder = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: 'ChainLens: reading trajectories',
            cancellable: true,
          },
          (progress, token) => {
            const abort = new AbortController();
            token.onCancellationRequested(() => abort.abort());
            return readTrajectoryFolder(uri.fsPath, {
              signal: abort.signal,
              workerScript,
              onFile: (file, done, total) =>
                progress.report({
                  message: `${done + 1}/${total}: ${relative(uri.fsPath, file)}`,
                  increment: 100 / total,
                }),
            });
          },
        );
        services.output.info(
          `trajectory folder ${uri.fsPath}: ${folder.rows.length} trajectories, ${folder.reports.length} report(s)`,
        );
        if (folder.rows.length === 0)
          throw new Error(
            `No trajectory in ${uri.fsPath} or its subfolders (SWE-agent .traj, mini-swe-agent .traj.json and preds.json, OpenHands output.jsonl and SDK event logs, predictions .jsonl).`,
          );
        list = folder;
        at = -1;
        void vscode.commands.executeCommand('setContext', 'chainlens.trajectoryFolder', true);
        await pick(folder);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.nextTrajectory',
      guarded(services.output, 'Next Trajectory in Folder', async () => show(at + 1)),
    ),
    vscode.commands.registerCommand(
      'chainlens.previousTrajectory',
      guarded(services.output, 'Previous Trajectory in Folder', async () => show(at - 1)),
    ),
  );
}
