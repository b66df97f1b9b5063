// ChainLens in VS Code: wires the features together, one register call each. Features get the
// shared services (active run, evaluation, output channel) and nothing else; see
// src/vscode/services.ts. Activation: a workspace that is a ChainLens work tree
// (workspaceContains:.git/chainlens/state, its pointer to the run's state folder; .../current of
// the old layout, migrated on open), the ChainLens view, or any ChainLens command.
import './vscode/zodConfig';
import * as vscode from 'vscode';
import type { AnnotationController } from './vscode/annotations/annotationController';
import { registerAnnotations } from './vscode/annotations/registerAnnotations';
import { registerLabels } from './vscode/labels/registerLabels';
import { registerSymbolCompare } from './vscode/gold/symbolCompare';
import { registerAgent } from './vscode/agent/registerAgent';
import { registerBatch } from './vscode/batch/registerBatch';
import { registerSweci } from './vscode/sweci/registerSweci';
import { registerChainView } from './vscode/chainView/chainTree';
import { showError, showNotes } from './vscode/errors';
import { ContainerEvaluationService } from './vscode/evaluation/evaluationService';
import { sweepOrphansAfterActivation } from './vscode/evaluation/orphanSweep';
import { registerCompareWithGold } from './vscode/gold/compareWithGold';
import { registerProblemStatement } from './vscode/problemStatement/problemPanel';
import { ActiveRun, hasChainLensRun } from './vscode/run/activeRun';
import { registerRunCommands } from './vscode/run/registerRunCommands';
import type { ChainLensServices } from './vscode/services';
import type { StudyApi } from './vscode/study/registerStudy';
import { registerDocuments } from './vscode/documents/registerDocuments';
import { registerStatusBar } from './vscode/statusBar';
import { registerTesting } from './vscode/testing/registerTesting';
import { registerTrajectories } from './vscode/trajectories/registerTrajectories';
import { registerCodeThread } from './vscode/codethread/registerCodeThread';
import { setLockHolderLabel } from './infra/run/runLock';
import { DisclosureGate } from './vscode/study/disclosureGate';
import { registerStudy } from './vscode/study/registerStudy';

/** What activate() returns: the services, for other extensions and the extension-host test suites. */
export interface ChainLensApi {
  readonly services: ChainLensServices;
  /** Settles once the work tree's run (if any) has been resumed after activation. */
  readonly ready: Promise<void>;
  /** The editor annotations of the annotated step (what is drawn, and drawing it again). */
  readonly annotations: AnnotationController;
  /** Study sessions: the time-on-task clock of the step being solved (extension-host tests read it). */
  readonly study: StudyApi;
}

export function activate(context: vscode.ExtensionContext): ChainLensApi {
  const started = Date.now();
  // What a CLI command refused by the run's lock is told holds it.
  setLockHolderLabel('VS Code');
  const output = vscode.window.createOutputChannel('ChainLens', { log: true });
  const runs = new ActiveRun(output);
  // Created before any feature: each gold-derived feature consults it (docs/study.md).
  const disclosure = new DisclosureGate(runs, output, context.globalState);
  const evaluation = new ContainerEvaluationService(runs, output, disclosure);
  const documents = registerDocuments(context, () => runs.current, runs.onDidChange, disclosure);
  const services: ChainLensServices = {
    context,
    documents,
    output,
    runs,
    evaluation,
    get run() {
      return runs.current;
    },
    onDidChangeRun: runs.onDidChange,
    disclosure,
  };
  context.subscriptions.push(output, runs, evaluation, disclosure, sweepOrphansAfterActivation(output));

  registerChainView(context, services);
  registerRunCommands(context, services, runs);
  registerTesting(context, services);
  registerProblemStatement(context, services);
  registerCompareWithGold(context, services);
  const annotations = registerAnnotations(context, services);
  registerLabels(context, services, annotations);
  registerSymbolCompare(context, services, annotations);
  registerStatusBar(context, services);
  registerAgent(context, services);
  registerSweci(context, services);
  registerTrajectories(context, services);
  const study = registerStudy(context, services, runs, disclosure);
  registerCodeThread(context, services);
  registerBatch(context, services);

  // A study session's task lives in its own work tree: reopened after the workspace's run (if any).
  const ready = resumeRun(services, runs).then(() =>
    study.resume().catch((e: unknown) => showError(output, e, 'Could not resume the study session')),
  );
  // Trusting the folder later: reopen the run with git (recovering anything left half done).
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void resumeRun(services, runs)));
  output.info(`ChainLens ${context.extension.packageJSON.version as string} activated in ${Date.now() - started} ms`);
  return { services, ready, annotations, study };
}

/** A window opened on a ChainLens work tree continues its run where it was. */
async function resumeRun(services: ChainLensServices, runs: ActiveRun): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.find(
    (f) => f.uri.scheme === 'file' && hasChainLensRun(f.uri.fsPath),
  );
  if (!folder) return;
  await vscode.commands.executeCommand('setContext', 'chainlens.loading', true);
  try {
    const resumed = await runs.resume(folder.uri.fsPath);
    if (resumed) showNotes(services.output, resumed.notes);
  } catch (e) {
    showError(services.output, e, `Could not open the ChainLens run in ${folder.uri.fsPath}`);
  } finally {
    await vscode.commands.executeCommand('setContext', 'chainlens.loading', false);
  }
}

export function deactivate(): void {
  // Everything is in context.subscriptions; in-flight containers are stopped by their AbortSignal
  // owners, and whatever a killed host process left is swept by the next ChainLens process.
}
