import type { FeedbackLevel } from '../../protocol/study';
import type { RunState } from '../../protocol/run';
import type { StepEvaluation } from '../../protocol/evaluation';

/**
 * What of gold and the hidden tests may reach the person at the run (docs/study.md "Blind
 * solving"). Every exit asks this one policy instead of deciding for itself, so a feature added
 * later cannot forget the study: in VS Code the annotations, hovers, CodeLenses, Problems entries,
 * gold documents, Compare with Gold, the Testing view, notifications and the Output channel; the
 * CLI's `study` commands; the MCP server and the language-model tools.
 */
export interface Disclosure {
  /** A person in a study is solving the current step: nothing derived from gold or hidden tests. */
  readonly blind: boolean;
  /** Overshoot/undershoot/drift decorations, Problems entries, hovers, CodeLenses. */
  readonly annotations: boolean;
  /** Gold versions of files and patches, Compare with Gold. */
  readonly goldDocuments: boolean;
  /**
   * Outside a study: the step a person is solving themselves, whose own gold (and annotations
   * against it) stays hidden until they submit it or reveal it; every other step's is shown.
   */
  readonly withheldGoldStep: number | null;
  /** The step's F2P/P2P test ids (the Testing view's items). */
  readonly testIds: boolean;
  /** How much of a test run's outcome may be shown: nothing, pass/fail counts, or every test. */
  readonly testResults: FeedbackLevel;
  /** Why something is withheld, for the message a refused command shows. */
  readonly reason: string | null;
  /** Submissions are graded here (false in a study pack: the hidden tests stay with the researcher). */
  readonly grading: boolean;
  /**
   * The run is a study participant's: researcher views (Study Results, export, report, other
   * participants) are refused, and no agent may be attached to the person's step.
   */
  readonly participant: boolean;
  /** The most test feedback an attached agent may get: a study's rule, whatever a flag or setting asks. */
  readonly agentTests: FeedbackLevel;
}

/** A run that is part of a study session: the study's rules for what a solver sees. */
export interface StudyRules {
  readonly study: string;
  readonly feedback: FeedbackLevel;
  readonly revealAfterSubmission: boolean;
  readonly gradeHere?: boolean;
}

export const OPEN: Disclosure = {
  blind: false,
  annotations: true,
  goldDocuments: true,
  withheldGoldStep: null,
  testIds: true,
  testResults: 'full',
  reason: null,
  grading: true,
  participant: false,
  agentTests: 'full',
};

type RunView = Pick<RunState, 'currentStep' | 'steps'>;

/** The command that shows a person's own step's gold outside a study (package.json). */
export const REVEAL_GOLD_COMMAND = 'ChainLens: Reveal Gold for This Step';

/**
 * Outside a study: everything, except that while a person authors the current step its own gold
 * stays hidden until they submit it or ask for it (`revealed`: the steps they asked for); a
 * researcher browsing recorded or agent steps sees everything. In a study, while the current step
 * is a person's: blind, and tests only as the study's feedback level allows (`none`: not even
 * the ids). Once no person's step is left open, annotations come back only if the study reveals
 * them after submission; otherwise the run stays as blind as while solving.
 */
export function disclosureFor(
  rules: StudyRules | undefined,
  run: RunView | undefined,
  revealed: readonly number[] = [],
): Disclosure {
  const current = run?.currentStep == null ? undefined : run.steps.find((s) => s.order === run.currentStep);
  const solving = current?.author.kind === 'human';
  if (!rules) {
    if (!current || !solving || revealed.includes(current.order)) return OPEN;
    return {
      ...OPEN,
      withheldGoldStep: current.order,
      reason: `you are solving step ${current.order} yourself: its gold stays hidden until you submit it or run "${REVEAL_GOLD_COMMAND}"`,
    };
  }
  const grading = rules.gradeHere ?? true;
  const study = { grading, participant: true, agentTests: rules.feedback };
  if (!solving && rules.revealAfterSubmission) return { ...OPEN, ...study };
  const reason = solving
    ? `you are solving a step of the study '${rules.study}' blind: gold and hidden tests stay hidden until you submit`
    : `the study '${rules.study}' does not reveal gold or hidden tests to participants`;
  return {
    blind: true,
    annotations: false,
    goldDocuments: false,
    withheldGoldStep: null,
    testIds: rules.feedback === 'full',
    testResults: rules.feedback,
    reason,
    ...study,
  };
}

/** Whether gold of `step` (its patch, file versions, annotations against it) may be shown. */
export function goldShown(d: Disclosure, step: number | undefined): boolean {
  return d.goldDocuments && (step === undefined || step !== d.withheldGoldStep);
}

/** Whether the person may reveal the current step's gold now (outside studies only). */
export function revealRefusal(d: Disclosure): string | null {
  if (d.participant) return d.reason ?? 'a study decides what its participants see';
  return null;
}

/** A graded step's outcome as counts (what every front end words its own way). */
export interface GradeOutcome {
  readonly status: string;
  readonly f2p: { readonly passed: number; readonly total: number };
  readonly p2p: { readonly passed: number; readonly total: number };
  /** A grading problem (no log, timed out, …): said only where results may be shown in full. */
  readonly problem?: string;
}

/** The outcome of an evaluation as counts; `problem` names why it gave no verdict, if so. */
export function outcomeOf(e: StepEvaluation, problem = e.error ?? undefined): GradeOutcome {
  const count = (b: { success: string[]; failure: string[] }) => ({
    passed: b.success.length,
    total: b.success.length + b.failure.length,
  });
  return {
    status: e.status,
    f2p: count(e.tests_status.FAIL_TO_PASS),
    p2p: count(e.tests_status.PASS_TO_PASS),
    problem,
  };
}

/**
 * What may be said of a graded step: `none`: only that it was graded; `summary`: the pass/fail
 * counts (no ids, no log); `full`: the status and counts. The one wording of the CLI's
 * `study submit`, the window's notifications and its Output channel.
 */
export function gradeText(d: Disclosure, g: GradeOutcome): string {
  if (d.testResults === 'none') return 'graded';
  const counts = `F2P ${g.f2p.passed}/${g.f2p.total} · P2P ${g.p2p.passed}/${g.p2p.total}`;
  if (d.testResults === 'summary') return counts;
  return g.problem ?? `${g.status} · ${counts}`;
}

/** Whether a graded step's log (it holds the failing hidden assertions) may be named or opened. */
export function logShown(d: Disclosure): boolean {
  return d.testResults === 'full';
}

/**
 * The test feedback an agent may get: the lower of what was asked for (a flag, a setting) and
 * what the study allows, so neither a flag nor a participant's setting loosens a study's rule.
 */
export function agentFeedbackFor(d: Disclosure, asked: FeedbackLevel): FeedbackLevel {
  const order: FeedbackLevel[] = ['none', 'summary', 'full'];
  return order[Math.min(order.indexOf(asked), order.indexOf(d.agentTests))];
}

/**
 * Why an agent may not be attached to the current step, or null. A study participant's step is
 * theirs: attaching an agent would change who authored it, which the study records.
 */
export function agentRefusal(d: Disclosure, run: RunView): string | null {
  if (!d.participant) return null;
  const current = run.currentStep == null ? undefined : run.steps.find((s) => s.order === run.currentStep);
  if (current?.author.kind !== 'human') return null;
  return `step ${current.order} is a study participant's to solve: no agent can be attached to it`;
}

/** Why a researcher's view (results, export, report, other participants) is refused here, or null. */
export function researcherRefusal(d: Disclosure, what: string): string | null {
  if (!d.participant) return null;
  return `${what} is for the researcher: it is not available inside a participant's study session`;
}
