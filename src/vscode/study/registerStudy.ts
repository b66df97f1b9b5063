// Human studies in VS Code (docs/study.md): the session commands, the time-on-task tracker and
// the Study Results view. The blind-solving gate itself is created in extension.ts before every
// other feature, because they all consult it.
import * as vscode from 'vscode';
import { openDialog } from '../util/pickerStart';
import type { StepClock } from '../../core/study/timeOnTask';
import { guarded } from '../errors';
import type { ActiveRun } from '../run/activeRun';
import type { ChainLensServices } from '../services';
import type { DisclosureGate } from './disclosureGate';
import { showStudyResults } from './resultsPanel';
import { StudySessionCommands, type StartStudyOptions } from './sessionCommands';
import { TimeTracker } from './timeTracker';

export interface StudyApi {
  /** The clock of the person step being solved, as recorded so far. */
  readonly clock: () => StepClock | undefined;
  /** Saves the clock now (what the periodic save does every few seconds). */
  readonly flush: () => void;
  /** After activation: reopens the session's task in progress. */
  readonly resume: () => Promise<void>;
}

export function registerStudy(
  context: vscode.ExtensionContext,
  services: ChainLensServices,
  runs: ActiveRun,
  gate: DisclosureGate,
): StudyApi {
  const tracker = new TimeTracker(services);
  const sessions = new StudySessionCommands(services, runs, gate, () => tracker.refresh());
  context.subscriptions.push(
    tracker,
    services.onDidChangeRun(() => sessions.followRun()),
    vscode.commands.registerCommand(
      'chainlens.study.start',
      guarded(services.output, 'Start Study Session', (options?: StartStudyOptions) => sessions.start(options)),
    ),
    vscode.commands.registerCommand(
      'chainlens.study.nextTask',
      guarded(services.output, 'Next Study Task', () => sessions.next()),
    ),
    vscode.commands.registerCommand('chainlens.study.pause', () => tracker.pause()),
    vscode.commands.registerCommand('chainlens.study.resume', () => tracker.resume()),
    vscode.commands.registerCommand(
      'chainlens.study.showResults',
      guarded(services.output, 'Study Results', async (file?: string) => {
        const studyFile =
          file ??
          sessions.pointer?.studyFile ??
          (
            await openDialog({
              canSelectMany: false,
              filters: { 'Study file': ['json'] },
              title: 'Study file',
            })
          )?.[0]?.fsPath;
        if (studyFile) await showStudyResults(studyFile, services.output, services.context.extensionUri);
      }),
    ),
  );
  return {
    clock: () => tracker.clock,
    flush: () => tracker.flush(),
    resume: () => sessions.resume(),
  };
}
