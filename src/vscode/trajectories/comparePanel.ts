// Two trajectories side by side (the same instance solved in Seq and Oracle, or by two models):
// steps aligned by what they did (src/core/trajectories/align.ts), a gap facing a step only one
// run took, each side with the files it touched. Read-only; one panel per pair.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { openDialog } from '../util/pickerStart';
import { loadTrajectoryFile } from '../../infra/trajectories';
import type { Trajectory, TrajectoryFile } from '../../protocol/trajectory';
import {
  FromCompareViewSchema,
  type CompareSide,
  type FromCompareView,
  type CompareViewState,
  type ToCompareView,
} from '../../protocol/trajectoryView';
import { errorMessage, guarded } from '../errors';
import type { ChainLensServices } from '../services';
import { hostWebview } from '../webviewHost';
import { toWorkspacePath } from './pathMapping';
import { problemText } from '../../core/trajectories/present/problemText';
import { stepRows } from '../../core/trajectories/present/stepRows';
import { alignTrajectories } from '../../core/trajectories/align';

const VIEW_TYPE = 'chainlens.trajectoryCompare';
const FILTERS = { 'Agent trajectories': ['traj', 'json', 'jsonl'], 'All files': ['*'] };

/** The trajectory of `file` to compare: the one for `instanceId` when the file holds several. */
export function pickTrajectory(file: TrajectoryFile, instanceId: string | null): Trajectory | undefined {
  return (instanceId ? file.trajectories.find((t) => t.instanceId === instanceId) : undefined) ?? file.trajectories[0];
}

/** Paths of `t` as the workspace names them (so two runs' sandboxes compare), else as recorded. */
function pathMap(services: ChainLensServices, t: Trajectory | undefined): (p: string) => string {
  const folder =
    services.run?.dir ?? vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  return (p: string) =>
    t ? (toWorkspacePath(p, t.workspaceRoot, folder ? (rel) => existsSync(join(folder, rel)) : undefined) ?? p) : p;
}

function side(path: string, file: TrajectoryFile, t: Trajectory | undefined, map: (p: string) => string): CompareSide {
  const rows = t ? stepRows(t, map) : [];
  return {
    file: path,
    title: `${basename(path)}${t?.instanceId ? ` · ${t.instanceId}` : ''}`,
    model: t?.model ?? null,
    exitStatus: t?.exitStatus ?? null,
    rows,
    files: [...new Set(rows.flatMap((r) => r.files))].sort(),
    problems: [...file.problems, ...(t?.problems ?? [])].map(problemText),
  };
}

function attach(services: ChainLensServices, panel: vscode.WebviewPanel, left: string, right: string): void {
  panel.title = `${basename(left)} ↔ ${basename(right)}`;
  panel.iconPath = {
    light: vscode.Uri.joinPath(services.context.extensionUri, 'media', 'trajectory-light.svg'),
    dark: vscode.Uri.joinPath(services.context.extensionUri, 'media', 'trajectory-dark.svg'),
  };
  const loading = (async (): Promise<ToCompareView> => {
    try {
      const [a, b] = await Promise.all([loadTrajectoryFile(left), loadTrajectoryFile(right)]);
      const ta = a.trajectories[0];
      const tb = pickTrajectory(b, ta?.instanceId ?? null);
      const [ma, mb] = [pathMap(services, ta), pathMap(services, tb)];
      const aligned = ta && tb ? alignTrajectories(ta, tb, { left: ma, right: mb }) : [];
      return { type: 'compare', left: side(left, a, ta, ma), right: side(right, b, tb, mb), aligned };
    } catch (e) {
      return { type: 'failed', message: errorMessage(e) };
    }
  })();
  const host = hostWebview<FromCompareView, ToCompareView>(panel, {
    extensionUri: services.context.extensionUri,
    view: 'trajectoryCompare',
    title: panel.title,
    stylesheet: 'trajectory.css',
    schema: FromCompareViewSchema,
    output: services.output,
    onReady: () => void loading.then((message) => host.post(message)),
  });
}

export function registerCompareTrajectories(context: vscode.ExtensionContext, services: ChainLensServices): void {
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel, state: unknown) {
        const saved = (state ?? {}) as CompareViewState;
        if (saved.left && saved.right && existsSync(saved.left) && existsSync(saved.right))
          attach(services, panel, saved.left, saved.right);
        else panel.dispose();
      },
    }),
    vscode.commands.registerCommand(
      'chainlens.compareTrajectories',
      guarded(services.output, 'Compare Trajectories', async (arg?: unknown, selected?: unknown) => {
        let uris = Array.isArray(selected)
          ? selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri)
          : arg instanceof vscode.Uri
            ? [arg]
            : [];
        // One file at a time: code-server's file dialog picks one file only.
        while (uris.length < 2) {
          const picked = await openDialog({
            canSelectMany: false,
            filters: FILTERS,
            title: uris.length
              ? `Compare ${basename(uris[0].fsPath)} with… (second trajectory)`
              : 'Compare Trajectories: first trajectory',
          });
          if (!picked?.[0]) return;
          uris = [...uris, picked[0]];
        }
        if (uris.length < 2) throw new Error('Pick two trajectory files to compare.');
        const [left, right] = uris.map((u) => u.fsPath);
        const panel = vscode.window.createWebviewPanel(VIEW_TYPE, 'Compare Trajectories', vscode.ViewColumn.Active, {
          retainContextWhenHidden: false,
        });
        attach(services, panel, left, right);
      }),
    ),
  );
}
