// The Comments panel's label actions: add a label on a commenting range (the typed text is the
// rationale), change a label, remove it.
import * as vscode from 'vscode';
import { guarded } from '../errors';
import type { LabelComment } from './labelComments';
import { pickLabel } from './labelPick';
import type { LabelSession } from './labelSession';
import { labelRecord, symbolAt } from './labelTarget';

export function registerCommentCommands(session: LabelSession): vscode.Disposable[] {
  const { services, annotations } = session;
  return [
    vscode.commands.registerCommand(
      'chainlens.labels.add',
      guarded(services.output, 'Add drift label', async (reply: vscode.CommentReply) => {
        const a = session.requireAnnotations();
        const file = annotations.relativePath(reply.thread.uri);
        const range = reply.thread.range;
        if (file === undefined || !range)
          throw new Error('Drift labels go on the changed lines of the annotated step.');
        const sym = symbolAt(a, file, range.start.line + 1);
        const label = await pickLabel({
          title: `Drift label for ${sym?.symbol ?? file}`,
          suggested: sym?.suggestion?.label,
          suggestionReason: sym?.suggestion?.reason,
        });
        if (!label || label === 'skip') return;
        const target =
          sym && sym.symbol !== '<module>'
            ? { file, symbol: sym.symbol, startLine: sym.startLine, endLine: sym.endLine }
            : { file, symbol: null, startLine: range.start.line + 1, endLine: range.end.line + 1 };
        const record = labelRecord(a, target, label, reply.text.trim(), await session.labeller());
        reply.thread.dispose();
        await session.save(record, target.startLine);
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.labels.edit',
      guarded(services.output, 'Edit drift label', async (comment: LabelComment) => {
        const old = comment.record;
        const label = await pickLabel({
          title: `Change the drift label of ${old.symbol ?? old.file} (now ${old.label})`,
          suggested: old.label,
        });
        if (!label || label === 'skip') return;
        const rationale = await vscode.window.showInputBox({
          title: 'Rationale',
          value: old.rationale,
          ignoreFocusOut: true,
        });
        if (rationale === undefined) return;
        await session.store().replace(old, {
          ...old,
          label,
          rationale,
          source: 'human',
          labeller: await session.labeller(),
          time: new Date().toISOString(),
        });
        await session.showThreads();
      }),
    ),
    vscode.commands.registerCommand(
      'chainlens.labels.remove',
      guarded(services.output, 'Remove drift label', async (comment: LabelComment) => {
        await session.store().remove(comment.record);
        await session.showThreads();
      }),
    ),
  ];
}
