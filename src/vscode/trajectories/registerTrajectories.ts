// Agent trajectories next to the code: "Open Trajectory…" (palette, explorer context menu on
// *.traj, *.traj.json, output.jsonl) opens one viewer panel per file; panels come back after a
// window reload (serializer, from the webview's saved state).
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { openDialog, workspaceRootUri } from '../util/pickerStart';
import type { TrajectoryViewState } from '../../protocol/trajectoryView';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';
import { registerCompareTrajectories } from './comparePanel';
import { TouchedLines } from './editorSync';
import { TrajectoryDocuments } from './trajectoryDocuments';
import { registerTrajectoryFolderList } from './trajectoryFolderList';
import { TRAJECTORY_VIEW_TYPE, TrajectoryPanel, type TrajectoryShared } from './trajectoryPanel';

export const TRAJECTORY_FILTERS = { 'Agent trajectories': ['traj', 'json', 'jsonl'], 'All files': ['*'] };

export function registerTrajectories(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const documents = new TrajectoryDocuments(services.documents);
  const touched = new TouchedLines();
  const shared: TrajectoryShared = {
    services,
    documents,
    touched,
    workerScript: context.asAbsolutePath('dist/trajectory-worker.js'),
  };
  const panels = new Map<string, TrajectoryPanel>();

  const adopt = (panel: TrajectoryPanel): TrajectoryPanel => {
    panels.set(panel.file, panel);
    panel.onDidDispose(() => {
      if (panels.get(panel.file) === panel) panels.delete(panel.file);
    });
    return panel;
  };

  /** Shows `file` (at one of its trajectories: an output.jsonl holds one per instance). */
  const open = (file: string, trajectory?: number): void => {
    const existing = panels.get(file);
    if (existing) {
      existing.reveal();
      if (trajectory !== undefined) existing.choose(trajectory);
    } else adopt(TrajectoryPanel.create(shared, file, trajectory));
  };

  context.subscriptions.push(
    documents,
    touched,
    { dispose: () => [...panels.values()].forEach((p) => p.dispose()) },
    vscode.window.registerWebviewPanelSerializer(TRAJECTORY_VIEW_TYPE, {
      async deserializeWebviewPanel(webviewPanel, state: unknown) {
        const saved = (state ?? {}) as TrajectoryViewState;
        if (!saved.file || !existsSync(saved.file)) {
          services.output.info(
            `trajectory viewer not restored: ${saved.file ? `${saved.file} is gone` : 'it had not saved which file it showed'}`,
          );
          webviewPanel.dispose();
          return;
        }
        services.output.info(
          `trajectory viewer restored: ${saved.file}${saved.selected !== undefined ? `, step ${saved.selected}` : ''}`,
        );
        adopt(new TrajectoryPanel(shared, saved.file, webviewPanel, saved.trajectory ?? 0));
      },
    }),
    vscode.commands.registerCommand(
      'chainlens.openTrajectory',
      guarded(services.output, 'Open Trajectory', async (arg?: unknown) => {
        // A path relative to the workspace root: the walkthrough's link to the demo trajectory.
        const root = workspaceRootUri();
        const named = typeof arg === 'string' && root ? vscode.Uri.joinPath(root, arg) : undefined;
        const uri =
          arg instanceof vscode.Uri
            ? arg
            : (named ??
              (
                await openDialog({
                  canSelectMany: false,
                  filters: TRAJECTORY_FILTERS,
                  title: 'Open Agent Trajectory',
                })
              )?.[0]);
        if (!uri) return;
        if (uri.scheme !== 'file')
          throw new Error(`Only files on disk can be opened as trajectories (${uri.toString()}).`);
        open(uri.fsPath);
      }),
    ),
  );
  registerCompareTrajectories(context, services);
  registerTrajectoryFolderList(context, services, open, shared.workerScript);
}
