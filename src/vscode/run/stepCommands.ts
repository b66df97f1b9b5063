// Submit Step and Switch Mode: the two engine operations a person triggers while solving.
import * as vscode from 'vscode';
import { UserError, isUserError } from '../../core/util/errors';
import type { RunMode } from '../../protocol/run';
import { isStepArg } from '../commandArgs';
import { errorMessage, showNotes } from '../errors';
import { describeEvaluationProblem, gradeOutcome } from '../evaluation/messages';
import { gradeText, logShown } from '../../core/study/disclosure';
import { saveDirtyDocuments } from '../evaluation/evaluationService';
import { modeLabel, type ChainLensServices } from '../services';
import { offerTrust, requireTrust } from '../trust';
import type { ActiveRun } from './activeRun';

export interface SubmitOptions {
  /** Ask before submitting (default true). */
  confirm?: boolean;
  /** Evaluate the submitted step right away (default true). */
  evaluate?: boolean;
}

/**
 * Commits the current step (engine.submit), moves on to the next step and opens its problem
 * statement, then grades the submitted commit in a container (shown in the Testing view).
 */
export async function submitStep(
  services: ChainLensServices,
  runs: ActiveRun,
  arg: unknown,
  options: SubmitOptions = {},
): Promise<void> {
  requireTrust('Submitting a step');
  const run = runs.require();
  const { state, chain } = run;
  const current = state.steps.find((s) => s.order === state.currentStep);
  if (!current) throw new UserError(`Run ${state.runId} is complete: every step has been submitted.`, 'state');
  if (isStepArg(arg) && arg.order !== current.order)
    throw new UserError(`Only the current step (${current.order}) can be submitted, not step ${arg.order}.`, 'state');
  if (current.author.kind !== 'human' && current.author.kind !== 'agent-live')
    throw new UserError(
      `Step ${current.order} is authored ${current.author.kind}: it is applied automatically.`,
      'state',
    );

  await saveDirtyDocuments(run.dir);
  if (options.confirm !== false) {
    const changed = await run.workspace.git.isDirty();
    const next = current.order < chain.steps.length ? current.order + 1 : undefined;
    const after =
      next === undefined
        ? 'This is the last step: the run is then complete.'
        : state.mode === 'seq'
          ? `Step ${next} then starts where this step ends (Seq).`
          : `Step ${next} then starts from the gold patches of steps 1–${current.order} (Oracle).`;
    const detail = `${changed ? `Your changes are committed on ${state.branch} and graded in a container.` : 'You have not changed anything: the step is submitted with an empty patch.'} ${after}`;
    const choice = await vscode.window.showInformationMessage(
      `Submit step ${current.order} of ${chain.steps.length}?`,
      { modal: true, detail },
      'Submit',
    );
    if (choice !== 'Submit') return;
  }

  const { snapshot, notes, submitted } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `ChainLens: submitting step ${current.order}` },
    () => runs.submit(),
  );
  showNotes(services.output, notes);
  // The walkthrough's "Submit the step" is done now, not when the confirmation opened.
  void vscode.commands.executeCommand('setContext', 'chainlens.stepSubmitted', true);
  const nextStep = snapshot.state.currentStep;
  services.output.info(
    `submitted step ${submitted}; ${nextStep === null ? 'the chain is complete' : `now on step ${nextStep}`}`,
  );
  if (nextStep !== null)
    void vscode.commands.executeCommand('chainlens.showProblemStatement', { kind: 'step', order: nextStep });

  // A study pack: graded by the researcher, where the hidden tests are (docs/study.md "Packs").
  if (options.evaluate === false || !services.disclosure.current.grading) return;
  const blocked = services.evaluation.blockedReason();
  if (blocked) {
    offerTrust(`Step ${submitted} was submitted but not graded. ${blocked}`);
    return;
  }
  try {
    const evaluation = await services.evaluation.evaluate({ step: submitted, source: 'submitted', origin: 'submit' });
    // A study that gives no test feedback: graded, but the outcome is not shown (docs/study.md).
    if (services.disclosure.current.testResults === 'none') {
      void vscode.window.showInformationMessage(
        `Step ${submitted} was submitted and graded.${nextStep === null ? '' : ` Now on step ${nextStep}.`}`,
      );
      return;
    }
    // `summary`: the counts, no status line of a problem, no log (it holds the hidden assertions).
    const shown = services.disclosure.current;
    const problem = logShown(shown) ? describeEvaluationProblem(evaluation) : undefined;
    const text = `Step ${submitted} ${problem ? `could not be graded: ${problem.headline}` : gradeText(shown, gradeOutcome(evaluation))}.`;
    const after = nextStep === null ? ' The chain is complete.' : ` Now on step ${nextStep}.`;
    const actions = nextStep === null && logShown(shown) ? ['Export Run Report…'] : [];
    void (
      evaluation.status === 'resolved' || !logShown(shown)
        ? vscode.window.showInformationMessage(text + after, ...actions)
        : vscode.window.showWarningMessage(text + after, ...actions, 'Show Log')
    ).then((choice) => {
      if (choice === 'Show Log')
        void vscode.commands.executeCommand('chainlens.showTestLog', { kind: 'step', order: submitted });
      if (choice === 'Export Run Report…') void vscode.commands.executeCommand('chainlens.exportRunReport');
    });
  } catch (e) {
    // The submit stands; only its grading failed (e.g. Docker is not running). Say so plainly.
    const headline = isUserError(e) ? errorMessage(e) : `grading failed: ${errorMessage(e)}`;
    services.output.error(`step ${submitted} was submitted; ${headline}`);
    void vscode.window
      .showWarningMessage(
        `Step ${submitted} was submitted, but ${headline} Run its tests again from the Testing view.`,
        'Show Log',
      )
      .then((c) => c && services.output.show(true));
  }
}

export async function switchMode(services: ChainLensServices, runs: ActiveRun, given?: RunMode): Promise<void> {
  requireTrust('Switching the mode');
  // Oracle applies gold patches: never while a study withholds gold (docs/study.md).
  services.disclosure.require('goldDocuments', 'Switching the mode');
  const run = runs.require();
  let mode = given;
  if (!mode) {
    const items = (['seq', 'oracle'] as const).map((m) => ({
      mode: m,
      label: modeLabel(m),
      description: m === run.state.mode ? '(current run)' : undefined,
      detail:
        m === 'seq'
          ? "Each step starts where the previous step's submitted work ended."
          : 'Each step starts from the base plus the gold patches of the steps before it.',
    }));
    const pick = await vscode.window.showQuickPick(items, { title: `Switch Mode: new run of ${run.chain.id}` });
    if (!pick) return;
    mode = pick.mode;
  }
  if (mode === run.state.mode) {
    const again = await vscode.window.showInformationMessage(
      `Run ${run.state.runId} is already in ${modeLabel(mode)} mode. Start a fresh ${modeLabel(mode)} run from step 1?`,
      { modal: true },
      'Start Fresh Run',
    );
    if (!again) return;
  }
  await saveDirtyDocuments(run.dir);
  const dirty = await run.workspace.git.isDirty();
  if (dirty) {
    const go = await vscode.window.showWarningMessage(
      `Start ${mode === 'oracle' ? 'an' : 'a'} ${modeLabel(mode)} run? Your uncommitted changes are stashed first.`,
      {
        modal: true,
        detail: `Run ${run.state.runId} is kept with its step refs and results; the log names the stash entry and how to restore it (\`chainlens status\` lists it too).`,
      },
      'Stash and Switch',
    );
    if (!go) return;
  }
  const { snapshot, notes } = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `ChainLens: starting ${mode === 'oracle' ? 'an' : 'a'} ${modeLabel(mode)} run`,
    },
    () => runs.switchMode(mode),
  );
  showNotes(services.output, notes);
  services.output.info(
    `switched to run ${snapshot.state.runId} (${modeLabel(mode)} mode, step ${snapshot.state.currentStep ?? 'complete'})`,
  );
  if (snapshot.state.currentStep !== null)
    void vscode.commands.executeCommand('chainlens.showProblemStatement', {
      kind: 'step',
      order: snapshot.state.currentStep,
    });
}
