import type { FeedbackLevel } from '../../protocol/study';
import type { RunState } from '../../protocol/run';

/**
 * What of gold and the hidden tests may reach the window (docs/study.md "Blind solving"). Every
 * gold-derived feature asks this one policy (annotations, hovers, CodeLenses, Problems entries,
 * gold documents, Compare with Gold, the Testing view) instead of each deciding for itself, so a
 * feature added later cannot forget the study.
 */
export interface Disclosure {
  /** A person in a study is solving the current step: nothing derived from gold or hidden tests. */
  readonly blind: boolean;
  /** Overshoot/undershoot/drift decorations, Problems entries, hovers, CodeLenses. */
  readonly annotations: boolean;
  /** Gold versions of files and patches, Compare with Gold. */
  readonly goldDocuments: boolean;
  /** The step's F2P/P2P test ids (the Testing view's items). */
  readonly testIds: boolean;
  /** How much of a test run's outcome may be shown: nothing, pass/fail counts, or every test. */
  readonly testResults: FeedbackLevel;
  /** Why something is withheld, for the message a refused command shows. */
  readonly reason: string | null;
  /** Submissions are graded here (false in a study pack: the hidden tests stay with the researcher). */
  readonly grading: boolean;
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
  testIds: true,
  testResults: 'full',
  reason: null,
  grading: true,
};

/**
 * Outside a study everything is shown, as before. In a study, while the current step is a
 * person's: blind, and tests only as the study's feedback level allows (`none`: not even the
 * ids). Once no person's step is left open, annotations come back only if the study reveals them
 * after submission; otherwise the run stays as blind as while solving.
 */
export function disclosureFor(
  rules: StudyRules | undefined,
  run: Pick<RunState, 'currentStep' | 'steps'> | undefined,
): Disclosure {
  if (!rules) return OPEN;
  const current = run?.currentStep == null ? undefined : run.steps.find((s) => s.order === run.currentStep);
  const solving = current?.author.kind === 'human';
  const grading = rules.gradeHere ?? true;
  if (!solving && rules.revealAfterSubmission) return { ...OPEN, grading };
  const reason = solving
    ? `you are solving a step of the study '${rules.study}' blind: gold and hidden tests stay hidden until you submit`
    : `the study '${rules.study}' does not reveal gold or hidden tests to participants`;
  return {
    blind: true,
    annotations: false,
    goldDocuments: false,
    testIds: rules.feedback === 'full',
    testResults: rules.feedback,
    reason,
    grading,
  };
}
