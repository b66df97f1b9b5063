// Start Study Session…: the study file and the participant id, consent shown once, then the
// participant's assigned tasks one after another: check out (Seq, in place), show the problem
// statement, solve, submit (Submit Step grades it), next task. The session lives in the data
// directory (app/study/session.ts). Each task opens the window on its work tree alone: no chain
// file, predictions, other sessions or results are in the workspace (Find in Files, quick open),
// and the editor state is that work tree's own, so nothing of another participant is restored.
// The window knows its session from the run's study record, so a reload goes on.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { openDialog } from '../util/pickerStart';
import { loadStudy, type LoadedStudy } from '../../app/study/loadStudy';
import { attachRun, currentTaskIndex, openSession, personStep, planTask, saveSession } from '../../app/study/session';
import { UserError } from '../../core/util/errors';
import type { ParticipantSession } from '../../protocol/studyRecords';
import { writePackResults } from '../../app/study/results';
import { gradeUngradedSubmissions } from '../../app/study/pendingGrades';
import { showNotes } from '../errors';
import type { ActiveRun } from '../run/activeRun';
import type { ChainLensServices } from '../services';
import { requireTrust } from '../trust';
import type { DisclosureGate } from './disclosureGate';

const SESSION_KEY = 'chainlens.study.session';

/** What a window's study session is (in workspaceState: no data about the person, only the id). */
export interface SessionPointer {
  readonly studyFile: string;
  readonly participant: string;
}

/** Arguments that skip the prompts (tests, keybindings, a pack's launch settings). */
export interface StartStudyOptions {
  studyFile?: string;
  participant?: string;
  /** The participant agreed to the consent text elsewhere (e.g. the test harness); default: asked. */
  consented?: boolean;
  /**
   * Keep this window instead of opening the task's work tree in it (default false). The window
   * then still holds the study folder, so it is not blind to Find in Files: only for tests of the
   * clock, never for a participant.
   */
  stayInWindow?: boolean;
}

const CANCELLED = new vscode.CancellationError();

async function pickStudyFile(): Promise<string> {
  const found = (await vscode.workspace.findFiles('**/*.json', '**/{node_modules,.git,sessions}/**', 400)).filter(
    (u) => {
      try {
        return (
          statSync(u.fsPath).size < 1024 * 1024 &&
          /"chainlensStudy"\s*:/.test(readFileSync(u.fsPath, 'utf8').slice(0, 4096))
        );
      } catch {
        return false;
      }
    },
  );
  type Item = vscode.QuickPickItem & { file?: string };
  const items: Item[] = found.map((u) => ({
    label: `$(beaker) ${basename(u.fsPath)}`,
    description: vscode.workspace.asRelativePath(dirname(u.fsPath)),
    file: u.fsPath,
  }));
  items.push({ label: '$(folder-opened) Browse…' });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Start Study Session (1/2): study file',
    ignoreFocusOut: true,
  });
  if (!pick) throw CANCELLED;
  if (pick.file) return pick.file;
  const chosen = await openDialog({ canSelectMany: false, filters: { 'Study file': ['json'] } });
  if (!chosen?.[0]) throw CANCELLED;
  return chosen[0].fsPath;
}

export class StudySessionCommands {
  constructor(
    private readonly services: ChainLensServices,
    private readonly runs: ActiveRun,
    private readonly gate: DisclosureGate,
    /** Called once a run's study record is written (the time tracker starts its clock). */
    private readonly attached: () => void,
  ) {}

  /** This window's session: the active run's study record, else what the window remembers. */
  get pointer(): SessionPointer | undefined {
    const record = this.gate.study;
    if (record?.participant) return { studyFile: record.studyFile, participant: record.participant };
    return this.services.context.workspaceState.get<SessionPointer>(SESSION_KEY);
  }

  async start(options: StartStudyOptions = {}): Promise<void> {
    requireTrust('Starting a study session');
    const file = options.studyFile ?? (await pickStudyFile());
    // Every problem of the file is reported before anything is asked, checked out or written.
    const study = loadStudy(file);
    const participant =
      options.participant ??
      (
        await vscode.window.showInputBox({
          title: 'Start Study Session (2/2): participant id',
          prompt: 'Your pseudonymous participant id, as the researcher gave it to you',
          ignoreFocusOut: true,
          validateInput: (v) => (study.sessions.has(v.trim()) ? undefined : 'Not a participant id of this study'),
        })
      )?.trim();
    if (!participant) throw CANCELLED;
    let session = openSession(study, participant);
    if (study.study.consent && !session.consentedAt) {
      const agreed =
        options.consented ??
        (await vscode.window.showInformationMessage(
          `Study "${study.study.name}": consent`,
          { modal: true, detail: study.study.consent },
          'I agree',
        )) === 'I agree';
      if (!agreed) throw CANCELLED;
      session = { ...session, consentedAt: new Date().toISOString() };
    }
    saveSession(session);
    if (options.stayInWindow)
      await this.services.context.workspaceState.update(SESSION_KEY, {
        studyFile: study.file,
        participant,
      } satisfies SessionPointer);
    await this.openTask(study, session, options.stayInWindow === true);
  }

  /** The next task of this window's session (after the last one was submitted). */
  async next(): Promise<void> {
    const pointer = this.pointer;
    if (!pointer)
      throw new UserError('No study session runs in this window: use "ChainLens: Start Study Session…".', 'state');
    const study = loadStudy(pointer.studyFile);
    const stay = this.services.context.workspaceState.get<SessionPointer>(SESSION_KEY) !== undefined;
    await this.openTask(study, openSession(study, pointer.participant), stay);
  }

  /** After a reload: the session's task in progress is opened again (its clock goes on). */
  async resume(): Promise<void> {
    const pointer = this.pointer;
    if (!pointer || this.services.run) return;
    const study = loadStudy(pointer.studyFile);
    const session = openSession(study, pointer.participant);
    const solving = session.tasks.find((t) => t.status === 'solving');
    if (solving) await this.runs.resume(solving.workTree);
    this.gradeLeftOver(session);
  }

  /**
   * Submissions a killed window or `study submit` left ungraded are graded now, in the
   * background (app/study/pendingGrades.ts); the open run's through the evaluation service, so
   * its views update. Not in Restricted Mode: grading runs containers.
   */
  private gradeLeftOver(session: ParticipantSession): void {
    if (this.services.evaluation.blockedReason()) return;
    void gradeUngradedSubmissions(session, {
      log: (line) => this.services.output.info(line),
      grade: (workTree, step) =>
        workTree === this.services.run?.dir
          ? this.services.evaluation.evaluate({ step, source: 'submitted', origin: 'submit' })
          : undefined,
    }).catch((e: unknown) =>
      this.services.output.error(`could not grade an earlier submission: ${(e as Error).message}`),
    );
  }

  /** A window opened on a session's work tree (by openTask): the problem statement is shown. */
  async welcome(): Promise<void> {
    if (!this.gate.study?.participant || !this.services.run) return;
    if (personStep(this.services.run.state) !== undefined) this.statement();
  }

  /**
   * On every change of the session's run: in a pack, the participant's results file is written
   * again (after a submission); once no person step is left, the task is done and the next offered.
   */
  followRun(): void {
    const pointer = this.pointer;
    const run = this.services.run;
    if (!pointer || !run) return;
    let study: LoadedStudy;
    try {
      study = loadStudy(pointer.studyFile);
    } catch {
      return;
    }
    const session = openSession(study, pointer.participant);
    if (!session.tasks.some((t) => t.runId === run.state.runId)) return;
    const pack = study.study.pack;
    if (pack)
      void writePackResults({ file: study.file, name: study.study.name, resultsDir: pack.resultsDir }, session).catch(
        (e: unknown) => this.services.output.error(`could not write the study results file: ${(e as Error).message}`),
      );
    if (personStep(run.state) !== undefined) return;
    const index = session.tasks.findIndex((t) => t.status === 'solving' && t.runId === run.state.runId);
    if (index < 0) return;
    const next: ParticipantSession = {
      ...session,
      tasks: session.tasks.map((t, i) => (i === index ? { ...t, status: 'done' as const } : t)),
    };
    saveSession(next);
    const remaining = next.tasks.filter((t) => t.status === 'pending').length;
    void vscode.window
      .showInformationMessage(
        remaining
          ? `Task ${index + 1} of ${next.tasks.length} is done. ${remaining} to go.`
          : `That was your last task of "${study.study.name}". Thank you!`,
        ...(remaining ? ['Next Task'] : []),
      )
      .then((choice) => choice && vscode.commands.executeCommand('chainlens.study.nextTask'));
  }

  private async openTask(study: LoadedStudy, session: ParticipantSession, stay = false): Promise<void> {
    this.gradeLeftOver(session);
    const index = currentTaskIndex(session);
    if (index === undefined) {
      void vscode.window.showInformationMessage(`You have done every task of "${study.study.name}". Thank you!`);
      return;
    }
    const entry = session.tasks[index];
    if (entry.status === 'solving' && entry.runId) {
      if (!stay && !this.inWindow(entry.workTree)) return this.openWindow(entry.workTree);
      await this.runs.resume(entry.workTree);
      this.statement();
      return;
    }
    const plan = planTask(study, session, index);
    // Blind from the run's first state change until its study record exists (fail closed).
    const expectation = this.gate.expectStudy(plan.workTree, plan.record);
    try {
      const { snapshot, notes } = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `ChainLens study: preparing task ${index + 1} of ${session.tasks.length}`,
        },
        (progress) =>
          this.runs.start(
            {
              chain: plan.chain,
              chainFile: plan.chainFile,
              source: plan.source,
              workTree: plan.workTree,
              mode: plan.mode,
              authors: plan.authors,
              recorded: plan.recorded,
            },
            (line) => progress.report({ message: line }),
          ),
      );
      showNotes(this.services.output, notes);
      attachRun(session, index, plan, snapshot.workspace.store.root, snapshot.state, Date.now());
      this.gate.refresh();
      this.attached();
      this.services.output.info(
        `study ${study.study.name}: ${session.participant} on task ${entry.task} (${entry.condition}) in ${snapshot.dir}`,
      );
    } finally {
      expectation.dispose();
    }
    if (!stay && !this.inWindow(plan.workTree)) return this.openWindow(plan.workTree);
    this.statement();
  }

  private inWindow(workTree: string): boolean {
    const folders = vscode.workspace.workspaceFolders ?? [];
    return folders.length === 1 && folders[0].uri.scheme === 'file' && folders[0].uri.fsPath === workTree;
  }

  /** The window becomes the work tree's alone (its own editor state; it resumes the run). */
  private async openWindow(workTree: string): Promise<void> {
    this.services.output.info(`study: opening the window on the task's work tree ${workTree}`);
    await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(workTree), { forceNewWindow: false });
  }

  private statement(): void {
    const step = this.services.run?.state.currentStep;
    void vscode.commands.executeCommand('chainlens.chain.focus');
    if (step) void vscode.commands.executeCommand('chainlens.showProblemStatement', { kind: 'step', order: step });
  }
}
