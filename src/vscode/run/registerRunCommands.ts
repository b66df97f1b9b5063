// Commands that act on the run as a whole: Open Chain, Submit Step, Switch Mode, Export Run
// Report, Show Log, Open Test Log. Each one turns failures into a readable notification.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { isStepArg } from '../commandArgs';
import { logShown } from '../../core/study/disclosure';
import { UserError } from '../../core/util/errors';
import { ChainFileProblems } from '../chainFile/readChain';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';
import type { RunMode } from '../../protocol/run';
import { requireTrust } from '../trust';
import type { ActiveRun } from './activeRun';
import { openChain, type OpenChainOptions } from './openChain';
import { submitStep, switchMode, type SubmitOptions } from './stepCommands';

async function exportRunReport(services: ChainLensServices, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const run = services.run;
  if (!run) throw new Error('No chain is open.');
  requireTrust('Exporting the run report');
  const report = await services.evaluation.exportReport();
  let uri = target;
  if (!uri) {
    // Beside the work tree, not in it: a report file would show up as a change of the step.
    const suggested = join(dirname(run.dir), `${run.chain.id}.${run.state.runId}.report.json`);
    uri = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(suggested),
      filters: { 'JSON report': ['json'] },
      title: 'Export Run Report',
      saveLabel: 'Export',
    });
    if (!uri) return undefined;
  }
  writeFileSync(uri.fsPath, `${JSON.stringify(report, null, 2)}\n`);
  const graded = report.steps.length;
  services.output.info(
    `exported the report of run ${report.run_id} to ${uri.fsPath}: ${report.resolved_steps}/${run.chain.steps.length} steps resolved (${graded} graded)`,
  );
  if (!target) {
    void vscode.window
      .showInformationMessage(
        `Run report saved: ${report.resolved_steps} of ${run.chain.steps.length} steps resolved${graded < run.chain.steps.length ? ` (${run.chain.steps.length - graded} not graded yet)` : ''}.`,
        'Open',
      )
      .then((c) => c && vscode.window.showTextDocument(uri));
  }
  return uri;
}

async function showTestLog(services: ChainLensServices, arg: unknown): Promise<void> {
  const run = services.run;
  if (!run) throw new Error('No chain is open.');
  const order = isStepArg(arg)
    ? arg.order
    : (run.state.currentStep ?? run.state.steps[run.state.steps.length - 1].order);
  const latest = services.evaluation.latest(order);
  if (!latest) throw new Error(`Step ${order} has not been evaluated yet: run its tests first.`);
  // The log holds the hidden tests' assertions: only where results may be shown in full.
  if (!logShown(services.disclosure.current))
    throw new UserError(`The test log is not available: ${services.disclosure.current.reason ?? 'withheld'}.`, 'state');
  await vscode.window.showTextDocument(vscode.Uri.file(latest.log_path), { preview: true });
}

export function registerRunCommands(
  context: vscode.ExtensionContext,
  services: ChainLensServices,
  runs: ActiveRun,
): void {
  const problems = new ChainFileProblems();
  const out = services.output;
  context.subscriptions.push(
    problems,
    vscode.commands.registerCommand(
      'chainlens.openChain',
      guarded(out, 'Open Chain', (file?: vscode.Uri, options?: OpenChainOptions) =>
        openChain(services, runs, problems, file instanceof vscode.Uri ? file : undefined, options),
      ),
    ),
    vscode.commands.registerCommand(
      'chainlens.submitStep',
      guarded(out, 'Submit Step', (arg?: unknown, options?: SubmitOptions) => submitStep(services, runs, arg, options)),
    ),
    vscode.commands.registerCommand(
      'chainlens.switchMode',
      guarded(out, 'Switch Mode', (mode?: RunMode) =>
        switchMode(services, runs, mode === 'seq' || mode === 'oracle' ? mode : undefined),
      ),
    ),
    vscode.commands.registerCommand(
      'chainlens.exportRunReport',
      guarded(out, 'Export Run Report', (target?: vscode.Uri) =>
        exportRunReport(services, target instanceof vscode.Uri ? target : undefined),
      ),
    ),
    vscode.commands.registerCommand('chainlens.showLog', () => out.show()),
    vscode.commands.registerCommand(
      'chainlens.showTestLog',
      guarded(out, 'Open Test Log', (arg?: unknown) => showTestLog(services, arg)),
    ),
  );
}
