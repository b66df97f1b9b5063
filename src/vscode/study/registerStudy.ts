// Human studies in VS Code (docs/study.md): the session commands, the time-on-task tracker and
// the Study Results view. The blind-solving gate itself is created in extension.ts before every
// other feature, because they all consult it.
import * as vscode from 'vscode';
import { openDialog } from '../util/pickerStart';
import type { StepClock } from '../../core/study/timeOnTask';
import { guarded } from '../errors';
import { UserError } from '../../core/util/errors';
import { OPEN, researcherRefusal } from '../../core/study/disclosure';
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
  /** After activation: reopens the session's task in progress (and shows its problem statement). */
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
  // The participant's terminals get no variable that points at the data directory (the chain
  // with its gold, the other sessions): CHAINLENS_DATA is blanked there, restored elsewhere.
  const terminalEnv = (): void => {
    const env = context.environmentVariableCollection;
    env.description = 'ChainLens study session: the data directory is not named in this terminal';
    if (gate.current.participant || sessions.pointer) env.replace('CHAINLENS_DATA', '');
    else env.delete('CHAINLENS_DATA');
  };
  terminalEnv();
  context.subscriptions.push(
    tracker,
    services.onDidChangeRun(() => sessions.followRun()),
    gate.onDidChange(terminalEnv),
    vscode.commands.registerCommand(
      'chainlens.study.start',
      guarded(services.output, 'Start Study Session', (options?: StartStudyOptions) => sessions.start(options)),
    ),
    vscode.commands.registerCommand(
      'chainlens.study.nextTask',
      guarded(services.output, 'Next Study Task', () => sessions.next()),
    ),
    vscode.commands.registerCommand(
      'chainlens.revealGold',
      guarded(services.output, 'Reveal Gold for This Step', async () => {
        const step = await gate.reveal();
        if (step === undefined)
          return void vscode.window.showInformationMessage('No step of yours hides its gold now.');
        services.output.info(`step ${step}: gold revealed at the person's request`);
        void vscode.window.showInformationMessage(
          `Step ${step}'s gold is shown from now on: annotations, Compare Step with Gold and gold documents.`,
        );
      }),
    ),
    vscode.commands.registerCommand('chainlens.study.pause', () => tracker.pause()),
    vscode.commands.registerCommand('chainlens.study.resume', () => tracker.resume()),
    vscode.commands.registerCommand(
      'chainlens.study.showResults',
      guarded(services.output, 'Study Results', async (file?: string) => {
        // Every participant's rows: never inside a participant's window (docs/study.md).
        gate.requireResearcher('Study Results');
        if (sessions.pointer)
          throw new UserError(`${researcherRefusal({ ...OPEN, participant: true }, 'Study Results')}.`, 'state');
        const studyFile =
          file ??
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
    resume: async () => {
      await sessions.resume();
      await sessions.welcome();
    },
  };
}
