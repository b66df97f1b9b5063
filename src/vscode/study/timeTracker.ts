// Time on task in the window (docs/study.md "Time on task"): while the active run is a study run
// and a person's step is current, editor and window events feed that step's clock
// (src/core/study/timeOnTask.ts through app's StepTimer), which is saved in the run's state folder
// every few seconds and on blur, so a reload or a killed extension host loses at most that much.
import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { overTimeLimit, type Activity, type StepClock } from '../../core/study/timeOnTask';
import { isTestRunOf, personStep, StepTimer } from '../../app/study/session';
import { StudyRunRecords } from '../../infra/study/runRecords';
import type { StudyRun } from '../../protocol/studyRecords';
import type { ChainLensServices, ChainRunSnapshot } from '../services';

/** How often the clock is saved while it changes: what a SIGKILL can lose at most. */
export const FLUSH_MS = 2000;

interface Tracked {
  readonly runId: string;
  readonly dir: string;
  readonly timer: StepTimer;
  readonly record: StudyRun;
  warnedLimit: boolean;
}

export class TimeTracker implements vscode.Disposable {
  private tracked: Tracked | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly interval: NodeJS.Timeout;
  /** A clock started before this extension host was is picked up after a reload (or a crash). */
  private readonly hostStartedAt = Date.now();
  private readonly reloadCounted = new Set<string>();

  constructor(private readonly services: ChainLensServices) {
    const on = (activity: Activity) => this.tracked?.timer.activity(activity);
    this.disposables.push(
      services.onDidChangeRun((run) => this.follow(run)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        const file = this.fileOf(e.document.uri);
        if (file !== undefined && e.contentChanges.length > 0) on({ kind: 'edit', file });
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        const file = editor ? this.fileOf(editor.document.uri) : undefined;
        on(file !== undefined ? { kind: 'open', file } : { kind: 'navigate' });
      }),
      vscode.window.onDidChangeTextEditorSelection(() => on({ kind: 'navigate' })),
      vscode.window.onDidChangeTextEditorVisibleRanges(() => on({ kind: 'navigate' })),
      vscode.window.onDidChangeWindowState((state) => {
        on({ kind: state.focused ? 'focus' : 'blur' });
        if (!state.focused) this.tracked?.timer.flush();
      }),
      vscode.window.onDidStartTerminalShellExecution(() => on({ kind: 'navigate' })),
      // A test run of the step being timed, by the person: the grading of a submitted step (Submit
      // moves the clock on to the next step first) is not a test run of the next one.
      services.evaluation.onDidStart((flight) => {
        const t = this.tracked;
        if (t && isTestRunOf(flight, t.runId, t.timer.step)) on({ kind: 'test' });
      }),
    );
    this.interval = setInterval(() => this.tick(), FLUSH_MS);
    this.follow(services.run);
  }

  /** The clock of the step being solved (what the extension-host tests read). */
  get clock(): StepClock | undefined {
    return this.tracked?.timer.current;
  }

  /** Follows the active run again (its study record was just written). */
  refresh(): void {
    this.follow(this.services.run);
  }

  pause(): void {
    this.tracked?.timer.activity({ kind: 'pause' });
    this.tracked?.timer.flush();
  }

  resume(): void {
    this.tracked?.timer.activity({ kind: 'resume' });
    this.tracked?.timer.flush();
  }

  flush(): void {
    this.tracked?.timer.flush();
  }

  private fileOf(uri: vscode.Uri): string | undefined {
    const t = this.tracked;
    if (!t || uri.scheme !== 'file') return undefined;
    const rel = relative(t.dir, uri.fsPath);
    return rel === '' || rel.startsWith('..') ? undefined : rel.split(sep).join('/');
  }

  private follow(run: ChainRunSnapshot | undefined): void {
    const step = run ? personStep(run.state) : undefined;
    const t = this.tracked;
    if (t && (t.runId !== run?.state.runId || t.timer.step !== step)) {
      // The step was submitted (here, from the CLI or by an agent tool) or another run opened.
      const submitted = run?.state.runId === t.runId && run.state.steps.find((s) => s.order === t.timer.step)?.end;
      if (submitted) t.timer.stop();
      else t.timer.flush();
      this.tracked = undefined;
    }
    if (!run || step === undefined || this.tracked) return;
    let record: StudyRun | undefined;
    try {
      record = new StudyRunRecords(run.workspace.store.root, run.state.runId).readRun();
    } catch {
      return;
    }
    if (!record) return;
    const records = new StudyRunRecords(run.workspace.store.root, run.state.runId);
    const saved = records.clock(step);
    const timer = new StepTimer(records, step, record.idleGapMs, Date.now, FLUSH_MS);
    this.tracked = { runId: run.state.runId, dir: run.dir, timer, record, warnedLimit: false };
    const key = `${run.workspace.store.root}\u0000${run.state.runId}\u0000${step}`;
    if (saved && saved.startedAt < this.hostStartedAt && !this.reloadCounted.has(key)) {
      this.reloadCounted.add(key);
      timer.activity({ kind: 'reload' });
    }
    timer.activity({ kind: vscode.window.state.focused ? 'focus' : 'blur' });
    timer.flush();
  }

  private tick(): void {
    const t = this.tracked;
    if (!t) return;
    t.timer.flush();
    if (!t.warnedLimit && overTimeLimit(t.timer.current, Date.now(), t.record.timeLimitMs ?? undefined)) {
      t.warnedLimit = true;
      void vscode.window.showWarningMessage(
        `The study's time limit for this step (${Math.round((t.record.timeLimitMs ?? 0) / 60000)} min) is reached: submit your work when you can.`,
      );
    }
  }

  dispose(): void {
    clearInterval(this.interval);
    this.tracked?.timer.flush();
    for (const d of this.disposables) d.dispose();
  }
}
