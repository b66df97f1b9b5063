import { evaluateStep } from '../evaluation';
import { startRun } from '../run/startRun';
import { submitStep } from '../run/stepActions';
import { openWorkspace } from '../../infra/run/workspace';
import { describeRepoSource } from '../../infra/git/mirror';
import { StudyRunRecords } from '../../infra/study/runRecords';
import { UserError } from '../../core/util/errors';
import type { StepEvaluation } from '../../protocol/evaluation';
import type { RunState } from '../../protocol/run';
import type { Chain } from '../../protocol/chain';
import type { ParticipantSession, StudyRun } from '../../protocol/studyRecords';
import { disclosureFor, type Disclosure, type StudyRules } from '../../core/study/disclosure';

/** A study run whose record cannot be read is treated as blind as a study run can be. */
const FAIL_CLOSED: StudyRules = { study: '(unreadable study record)', feedback: 'none', revealAfterSubmission: false };
import type { LoadedStudy } from './loadStudy';
import { afterSubmit, attachRun, currentTaskIndex, personStep, planTask, saveSession, StepTimer } from './session';

/**
 * A participant's session without VS Code (`chainlens study start|submit`): the same run starts,
 * records and grading as the window's, with only the wall clock measured (there is no editor to
 * tell activity from idleness).
 */
export async function startNextTask(
  study: LoadedStudy,
  session: ParticipantSession,
  log: (line: string) => void,
): Promise<
  { session: ParticipantSession; index: number; state: RunState; chain: Chain; workTree: string } | undefined
> {
  const index = currentTaskIndex(session);
  if (index === undefined) return undefined;
  const entry = session.tasks[index];
  if (entry.status === 'solving' && entry.runId) {
    const ws = await openWorkspace(entry.workTree, log);
    const { state, chain } = await ws.engine.open();
    return { session, index, state, chain, workTree: ws.dir };
  }
  const plan = planTask(study, session, index);
  saveSession(session);
  const { workspace, state, notes } = await startRun(
    {
      chain: plan.chain,
      chainPath: plan.chainFile,
      source: plan.source,
      dir: plan.workTree,
      mode: plan.mode,
      authors: plan.authors,
      recorded: plan.recorded,
      operation: 'study session',
    },
    log,
  );
  notes.forEach(log);
  log(`task ${entry.task} (${entry.condition}) of ${describeRepoSource(plan.source)} checked out in ${workspace.dir}`);
  const next = attachRun(session, index, plan, workspace.store.root, state, Date.now());
  return { session: next, index, state, chain: plan.chain, workTree: workspace.dir };
}

export interface SubmittedStep {
  readonly session: ParticipantSession;
  readonly submitted: number;
  readonly state: RunState;
  readonly evaluation: StepEvaluation | undefined;
  /** What of the grade may be shown now (the study's rule, at the run's next step). */
  readonly disclosure: Disclosure;
}

/**
 * The study run the folder `dir` belongs to, when it is a participant's work tree (a terminal
 * opened in their window): researcher commands are refused there. Undefined for any other folder.
 */
export async function participantRunAt(dir: string): Promise<StudyRun | undefined> {
  try {
    const ws = await openWorkspace(dir);
    const runId = ws.store.exists ? ws.store.currentRunId() : null;
    return runId ? new StudyRunRecords(ws.store.root, runId).readRun() : undefined;
  } catch {
    return undefined; // not a work tree of a run: the researcher's own folder
  }
}

/** Stops the step's clock, submits the person's step, grades it in its container (unless `grade` is false). */
export async function submitCurrentStep(
  session: ParticipantSession,
  options: { grade: boolean; log: (line: string) => void; signal?: AbortSignal },
): Promise<SubmittedStep> {
  const index = session.tasks.findIndex((t) => t.status === 'solving');
  const entry = session.tasks[index];
  if (!entry?.runId)
    throw new UserError(`'${session.participant}' has no task in progress: start the next one first`, 'state');
  const ws = await openWorkspace(entry.workTree, options.log);
  const { state: before, chain } = await ws.engine.open();
  const step = personStep(before);
  if (step === undefined) throw new UserError(`the run in ${ws.dir} has no step for a person to submit`, 'state');
  const records = new StudyRunRecords(ws.store.root, before.runId);
  const rules = records.readRun();
  new StepTimer(records, step, rules?.idleGapMs ?? 120_000, Date.now).stop();
  // Said before the submit: a submitted step without an evaluation is then either this choice or
  // a submit cut short, which the next study command grades (pendingGrades.ts).
  if (!options.grade || records.ungradedByChoice().includes(step)) records.setUngradedByChoice(step, !options.grade);
  const { state, notes, submitted } = await submitStep({ dir: ws.dir, state: before, chain, workspace: ws });
  notes.forEach(options.log);
  const next = afterSubmit(session, index, ws.store.root, state, Date.now());
  const evaluation = options.grade
    ? await evaluateStep({
        dir: ws.dir,
        workspace: ws,
        step: submitted,
        source: 'submitted',
        signal: options.signal,
        onProgress: options.log,
      })
    : undefined;
  return { session: next, submitted, state, evaluation, disclosure: disclosureFor(rules ?? FAIL_CLOSED, state) };
}
