// CodeThread in VS Code (docs/reference/codethread.md): a language-model draft of a richer
// Implementation Task statement, offered to a person and shown for review, never applied silently.
import * as vscode from 'vscode';
import { fileVersion } from '../../app/fileVersions/fileVersion';
import { draftStatementPrompt } from '../../core/codethread/draftPrompt';
import { UserError } from '../../core/util/errors';
import { guarded } from '../errors';
import type { ChainLensServices } from '../services';

export function registerCodeThread(context: vscode.ExtensionContext, services: ChainLensServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'chainlens.codethread.draftStatement',
      guarded(services.output, 'Draft Implementation Task', async () => {
        const run = services.run;
        if (!run?.chain.codethread) throw new UserError('The open chain is not a CodeThread task.', 'state');
        const models = await vscode.lm.selectChatModels();
        const model = models[0];
        if (!model)
          throw new UserError(
            'No language model is available in this editor: install or sign in to a chat extension.',
            'environment',
          );
        const files: { path: string; text: string }[] = [];
        // The files as step 1 starts (PR0): what its solver sees anyway.
        for (const path of [...new Set(run.chain.codethread.targets.map((t) => t.file))]) {
          const version = await fileVersion(run, 1, 'base', path);
          if ('text' in version) files.push({ path, text: version.text });
        }
        const consent = await vscode.window.showInformationMessage(
          `Draft a richer Implementation Task statement with ${model.name}?`,
          {
            modal: true,
            detail: `${model.name} gets the task's statement and ${files.map((f) => f.path).join(', ')} as PR0 holds them, nothing else. The draft opens for you to review; the task is not changed.`,
          },
          'Draft',
        );
        if (consent !== 'Draft') return;
        const prompt = draftStatementPrompt(run.chain.steps[0].problemStatement, files);
        const draft = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Drafting with ${model.name}…`, cancellable: true },
          async (_progress, token) => {
            const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, token);
            let text = '';
            for await (const chunk of response.text) text += chunk;
            return text;
          },
        );
        const doc = await vscode.workspace.openTextDocument({
          language: 'markdown',
          content: `<!-- Draft by ${model.name} of the Implementation Task statement of ${run.chain.id}, for you to review. ChainLens has not changed the task. -->\n\n${draft}`,
        });
        await vscode.window.showTextDocument(doc);
      }),
    ),
  );
}
