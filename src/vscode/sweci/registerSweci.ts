// SWE-CI in VS Code (docs/sweci.md): the Requirement editor beside the code (the current
// iteration's requirement document, kept with the run outside the work tree), the test gap as a
// read-only document, Submit Iteration (commits, runs the tests in the task's image, records the
// passing set and regressions), and the loop's tools for agents as language-model tools. The
// gap's tests are the step's FAIL_TO_PASS, so the Testing view lists them too.
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { readGap } from '../../app/sweci/gap';
import { currentIteration, openTask } from '../../app/sweci/openTask';
import { submitIteration } from '../../app/sweci/submitIteration';
import { callSweciTool } from '../../app/sweci/tools';
import { SWECI_TOOLS } from '../../core/sweci/tools';
import { writeFileAtomic } from '../../infra/files';
import { guarded } from '../errors';
import { requireTrust, restrictedMessage } from '../trust';
import type { ChainLensServices } from '../services';
import { gapMarkdown } from './gapMarkdown';

export const GAP_SCHEME = 'chainlens-sweci-gap';

/** Name of a SWE-CI tool among VS Code's language-model tools (package.json languageModelTools). */
export function sweciLmToolName(name: string): string {
  return `chainlens_sweci_${name}`;
}

function requireRunDir(services: ChainLensServices): string {
  const run = services.runs.current;
  if (!run)
    throw new Error('No chain run is open in this window: initialise a SWE-CI task with `chainlens sweci init`.');
  return run.dir;
}

export function registerSweci(context: vscode.ExtensionContext, services: ChainLensServices): void {
  const gapChanged = new vscode.EventEmitter<vscode.Uri>();
  const gapUri = vscode.Uri.from({ scheme: GAP_SCHEME, path: '/SWE-CI test gap.md' });
  context.subscriptions.push(
    gapChanged,
    vscode.workspace.registerTextDocumentContentProvider(GAP_SCHEME, {
      onDidChange: gapChanged.event,
      provideTextDocumentContent: async () => gapMarkdown(await readGap(requireRunDir(services))),
    }),
    vscode.commands.registerCommand(
      'chainlens.sweci.openRequirement',
      guarded(services.output, 'Open SWE-CI Requirement', async () => {
        requireTrust('Open SWE-CI Requirement');
        const { record, store } = await openTask(requireRunDir(services), undefined, false);
        const iteration = currentIteration(record);
        if (iteration === null)
          throw new Error(`The SWE-CI loop of task ${record.task.taskId} has stopped (${record.stopped}).`);
        const path = store.requirementPath(record.runId, iteration);
        if (!existsSync(path))
          writeFileAtomic(
            path,
            `# Requirement, iteration ${iteration}\n\n<!-- At most five items, each: location, description, contract, acceptance. -->\n`,
          );
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.sweci.showGap',
      guarded(services.output, 'Show SWE-CI Test Gap', async () => {
        gapChanged.fire(gapUri);
        const doc = await vscode.workspace.openTextDocument(gapUri);
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.sweci.submitIteration',
      guarded(services.output, 'Submit SWE-CI Iteration', async () => {
        requireTrust('Submit SWE-CI Iteration');
        const dir = requireRunDir(services);
        await vscode.workspace.saveAll(false);
        const record = await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: 'ChainLens: submitting the SWE-CI iteration',
            cancellable: true,
          },
          (_progress, token) => {
            const ac = new AbortController();
            token.onCancellationRequested(() => ac.abort());
            return submitIteration({
              dir,
              architect: 'human',
              programmer: 'human',
              signal: ac.signal,
              log: (l) => services.output.info(l),
            });
          },
        );
        await services.runs.reload();
        gapChanged.fire(gapUri);
        const last = record.iterations[record.iterations.length - 1];
        void vscode.window.showInformationMessage(
          `Iteration ${last.iteration}: ${last.run.passed.length} passing, ${last.regressions.length} regression(s), gap ${last.gap.length}` +
            (record.stopped ? ` — the loop stopped (${record.stopped}).` : '.'),
        );
      }),
    ),
  );

  for (const tool of SWECI_TOOLS) {
    context.subscriptions.push(
      vscode.lm.registerTool<Record<string, unknown>>(sweciLmToolName(tool.name), {
        prepareInvocation: () => ({ invocationMessage: `ChainLens SWE-CI: ${tool.title.toLowerCase()}` }),
        async invoke(options, token) {
          if (!vscode.workspace.isTrusted)
            return new vscode.LanguageModelToolResult([
              new vscode.LanguageModelTextPart(`Error: ${restrictedMessage(`ChainLens's ${tool.name} tool`)}`),
            ]);
          const ac = new AbortController();
          const sub = token.onCancellationRequested(() => ac.abort());
          try {
            const agent =
              vscode.workspace.getConfiguration('chainlens.agent').get<string>('name')?.trim() || 'vscode-agent';
            const result = await callSweciTool(
              requireRunDir(services),
              'both',
              agent,
              tool.name,
              options.input ?? {},
              ac.signal,
            );
            if (tool.name === 'submit_iteration') {
              await services.runs.reload();
              gapChanged.fire(gapUri);
            }
            return new vscode.LanguageModelToolResult([
              new vscode.LanguageModelTextPart(result.isError ? `Error: ${result.text}` : result.text),
            ]);
          } finally {
            sub.dispose();
          }
        },
      }),
    );
  }
}
