// The one gate every gold-derived feature consults (docs/study.md "Blind solving"): annotations,
// hovers, CodeLenses and Problems entries, gold documents, Compare with Gold, the Testing view and
// the grading messages. It follows the active run: a run that is part of a study carries the
// study's rules beside its state (runs/<run>/study/run.json), and the policy itself is pure
// (src/core/study/disclosure.ts). Outside studies it answers "everything", except a person's own
// step's gold until they submit it or run Reveal Gold for This Step (remembered per step).
import * as vscode from 'vscode';
import {
  disclosureFor,
  goldShown,
  OPEN,
  researcherRefusal,
  revealRefusal,
  type Disclosure,
} from '../../core/study/disclosure';
import { UserError } from '../../core/util/errors';
import type { StudyRun } from '../../protocol/studyRecords';
import { StudyRunRecords } from '../../infra/study/runRecords';
import type { ActiveRunService, ChainRunSnapshot, DisclosureService } from '../services';

export type GatedFeature = 'annotations' | 'goldDocuments';

export class DisclosureGate implements DisclosureService, vscode.Disposable {
  private disclosure: Disclosure = OPEN;
  private record: StudyRun | undefined;
  private readonly changed = new vscode.EventEmitter<Disclosure>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** Work trees a study session is starting a run in: blind before their record is written. */
  private readonly expected = new Map<string, StudyRun>();

  constructor(
    private readonly runs: ActiveRunService,
    private readonly output: vscode.LogOutputChannel,
    /** Where the steps a person revealed are remembered (per run and step, across windows). */
    private readonly memory: vscode.Memento,
  ) {
    this.subscription = runs.onDidChange((run) => this.follow(run));
    this.follow(runs.current);
  }

  get current(): Disclosure {
    return this.disclosure;
  }

  /** The study rules of the active run, when it is part of a study. */
  get study(): StudyRun | undefined {
    return this.record;
  }

  require(feature: GatedFeature, what: string, step?: number): void {
    if (this.disclosure[feature] && (feature !== 'goldDocuments' || goldShown(this.disclosure, step))) return;
    throw new UserError(`${what} is not available: ${this.disclosure.reason ?? 'withheld in this study'}.`, 'state');
  }

  requireResearcher(what: string): void {
    const refusal = researcherRefusal(this.disclosure, what);
    if (refusal) throw new UserError(`${refusal}.`, 'state');
  }

  /** Reveal Gold for This Step: the person's own current step's gold, from now on (outside studies). */
  async reveal(): Promise<number | undefined> {
    const run = this.runs.current;
    const refusal = revealRefusal(this.disclosure);
    if (refusal) throw new UserError(`Reveal Gold for This Step is not available: ${refusal}.`, 'state');
    const step = this.disclosure.withheldGoldStep;
    if (!run || step === null) return undefined;
    const key = revealKey(run);
    await this.memory.update(key, [...new Set([...this.revealed(run), step])]);
    this.follow(run);
    return step;
  }

  private revealed(run: ChainRunSnapshot): number[] {
    return this.memory.get<number[]>(revealKey(run)) ?? [];
  }

  /**
   * A study session is about to start a run in `workTree`: the run is treated as the study's from
   * its first state change, before its record exists (the record needs the run's state folder,
   * which the checkout creates). Fail closed: no moment shows gold.
   */
  expectStudy(workTree: string, record: StudyRun): vscode.Disposable {
    this.expected.set(workTree, record);
    return new vscode.Disposable(() => {
      this.expected.delete(workTree);
      this.follow(this.runs.current);
    });
  }

  /** While a session is starting a run, any run without a record is taken for it (fail closed). */
  private pending(dir: string): StudyRun | undefined {
    return this.expected.get(dir) ?? this.expected.values().next().value;
  }

  /** Re-reads the active run's study record (after a session wrote it). */
  refresh(): void {
    this.follow(this.runs.current);
  }

  private follow(run: ChainRunSnapshot | undefined): void {
    let record: StudyRun | undefined;
    if (run) {
      try {
        record = new StudyRunRecords(run.workspace.store.root, run.state.runId).readRun() ?? this.pending(run.dir);
      } catch (e) {
        // A damaged record must not open the gate: treat the run as blind as a study run can be.
        this.output.error(`study record of run ${run.state.runId}: ${(e as Error).message}`);
        record = { ...FAIL_CLOSED, studyFile: '', participant: '', task: '', condition: '' };
      }
    }
    this.record = record;
    const next = disclosureFor(record, run?.state, run ? this.revealed(run) : []);
    void vscode.commands.executeCommand('setContext', 'chainlens.blind', next.blind);
    void vscode.commands.executeCommand('setContext', 'chainlens.goldWithheld', next.withheldGoldStep !== null);
    if (JSON.stringify(next) === JSON.stringify(this.disclosure)) return;
    this.disclosure = next;
    this.changed.fire(next);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function revealKey(run: ChainRunSnapshot): string {
  return `chainlens.revealedGold:${run.workspace.store.root}:${run.state.runId}`;
}

const FAIL_CLOSED: Omit<StudyRun, 'studyFile' | 'participant' | 'task' | 'condition'> = {
  schema: 1,
  study: '(unreadable study record)',
  authors: [],
  feedback: 'none',
  revealAfterSubmission: false,
  idleGapMs: 120_000,
  timeLimitMs: null,
  gradeHere: true,
};
