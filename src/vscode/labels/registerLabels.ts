// Drift labelling in the editor: comment threads on changed ranges (commentCommands.ts), the
// keyboard-fast walk over changed symbols (labelWalk.ts), export and agreement of label files
// (labelFiles.ts), all on one LabelSession (the run's label store and the threads).
import type * as vscode from 'vscode';
import type { ChainLensServices, StepAnnotationsService } from '../services';
import { registerCommentCommands } from './commentCommands';
import { registerLabelFiles } from './labelFiles';
import { LabelSession } from './labelSession';
import { registerLabelWalk } from './labelWalk';

export function registerLabels(
  context: vscode.ExtensionContext,
  services: ChainLensServices,
  annotations: StepAnnotationsService,
): void {
  const session = new LabelSession(services, annotations);
  context.subscriptions.push(
    session,
    annotations.onDidUpdate(() => void session.showThreads()),
    ...registerCommentCommands(session),
    ...registerLabelWalk(session),
    ...registerLabelFiles(session),
  );
}
