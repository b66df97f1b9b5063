// "chain · step k/n · mode" in the status bar while a run is open; a spinner while a step's
// tests run. Clicking it reveals the chain tree.
import * as vscode from 'vscode';
import { modeLabel, type ChainLensServices } from './services';

export function registerStatusBar(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const item = vscode.window.createStatusBarItem('chainlens.run', vscode.StatusBarAlignment.Left, 50);
  item.name = 'ChainLens Run';
  item.command = { command: 'workbench.view.extension.chainlens', title: 'Show the ChainLens chain' };
  let evaluating: number | undefined;
  let inFlight = 0;

  const update = (): void => {
    const run = services.run;
    if (!run) {
      item.hide();
      return;
    }
    const { state, chain } = run;
    const where = state.currentStep === null ? 'complete' : `step ${state.currentStep}/${chain.steps.length}`;
    const icon = evaluating !== undefined ? '$(sync~spin)' : '$(list-ordered)';
    item.text = `${icon} ${chain.id} · ${where} · ${modeLabel(state.mode)}`;
    const tooltip = new vscode.MarkdownString(
      [
        `**ChainLens** · ${chain.id}`,
        `Run \`${state.runId}\`, ${modeLabel(state.mode)} mode, ${where}`,
        evaluating !== undefined ? `Running the tests of step ${evaluating}…` : undefined,
        '',
        'Click to show the chain',
      ]
        .filter((l) => l !== undefined)
        .join('  \n'),
    );
    item.tooltip = tooltip;
    item.accessibilityInformation = {
      label: `ChainLens: ${chain.id}, ${where}, ${modeLabel(state.mode)} mode`,
      role: 'button',
    };
    item.show();
  };

  context.subscriptions.push(
    item,
    services.onDidChangeRun(update),
    services.evaluation.onDidStart((flight) => {
      evaluating = flight.step;
      inFlight++;
      update();
      void flight.result
        .catch(() => undefined)
        .finally(() => {
          if (--inFlight === 0) evaluating = undefined;
          update();
        });
    }),
  );
  update();
}
