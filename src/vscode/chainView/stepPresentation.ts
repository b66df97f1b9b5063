// How a step looks in the chain tree, the status bar and the problem statement: one status out of
// the run state and the latest evaluations, with its codicon, theme colour and words. Pure: no
// 'vscode', so it is unit-tested and the same words appear everywhere.
import { authorLabel } from '../../core/run/plan';
import type { StepEvaluation } from '../../protocol/evaluation';
import type { StepState } from '../../protocol/run';
import { bucketCounts, describeEvaluationProblem } from '../evaluation/messages';
import { formatDuration } from '../../core/util/duration';

export type StepDisplayStatus = 'pending' | 'current' | 'submitted' | 'resolved' | 'unresolved' | 'error' | 'skipped';

export interface StepPresentation {
  status: StepDisplayStatus;
  /** Codicon id (ThemeIcon). */
  icon: string;
  /** Contributed theme colour id, or undefined for the default foreground. */
  color: string | undefined;
  /** Short words for the status: "current", "resolved", "patch did not apply". */
  statusText: string;
  /** Tree description: author and time spent. */
  description: string;
  /** Markdown lines for the tooltip. */
  tooltip: string[];
}

/**
 * "invoicekit-101" for "chainlens-demo__invoicekit-101" of chain repo chainlens-demo/invoicekit:
 * SWE-bench ids repeat the owner, which the chain already names; short labels fit the side bar.
 */
export function shortInstanceId(instanceId: string, repo: string): string {
  const owner = repo.split('/')[0];
  return owner && instanceId.startsWith(`${owner}__`) ? instanceId.slice(owner.length + 2) : instanceId;
}

/** Elapsed wall time of a step: start to submit, or so far for the current step. */
export function stepElapsedMs(step: StepState, now: number): number | null {
  if (step.elapsedMs !== null) return step.elapsedMs;
  if (step.status === 'current' && step.startedAt) return Math.max(0, now - new Date(step.startedAt).getTime());
  return null;
}

function statusOf(step: StepState, submitted: StepEvaluation | undefined): { status: StepDisplayStatus; text: string } {
  switch (step.status) {
    case 'pending':
      return step.note?.startsWith('skipped')
        ? { status: 'skipped', text: 'skipped' }
        : { status: 'pending', text: 'pending' };
    case 'current':
      return { status: 'current', text: 'current' };
    case 'patch_failed':
      return { status: 'error', text: 'patch did not apply' };
    case 'empty_patch':
      return { status: 'error', text: 'no patch' };
    case 'submitted':
      if (!submitted) return { status: 'submitted', text: 'submitted, not evaluated' };
      if (submitted.status === 'resolved') return { status: 'resolved', text: 'resolved' };
      if (submitted.status === 'unresolved') return { status: 'unresolved', text: 'unresolved' };
      return { status: 'error', text: describeEvaluationProblem(submitted)?.headline ?? 'evaluation error' };
  }
}

const LOOK: Record<StepDisplayStatus, { icon: string; color: string | undefined }> = {
  pending: { icon: 'circle-large-outline', color: 'disabledForeground' },
  skipped: { icon: 'debug-step-over', color: 'disabledForeground' },
  current: { icon: 'debug-stackframe', color: 'chainlens.stepCurrentForeground' },
  submitted: { icon: 'pass', color: undefined },
  resolved: { icon: 'pass-filled', color: 'chainlens.stepResolvedForeground' },
  unresolved: { icon: 'error', color: 'chainlens.stepUnresolvedForeground' },
  error: { icon: 'warning', color: 'chainlens.stepErrorForeground' },
};

function testLine(label: string, e: StepEvaluation): string {
  const problem = describeEvaluationProblem(e);
  if (problem) return `${label}: ${problem.headline}`;
  const { f2p, p2p } = bucketCounts(e);
  return `${label}: **${e.status}**, FAIL_TO_PASS ${f2p.passed}/${f2p.total}, PASS_TO_PASS ${p2p.passed}/${p2p.total} (${new Date(e.evaluated_at).toLocaleString()})`;
}

export function presentStep(
  step: StepState,
  evaluations: { submitted?: StepEvaluation; worktree?: StepEvaluation },
  now: number,
): StepPresentation {
  const { status, text } = statusOf(step, evaluations.submitted);
  const elapsed = stepElapsedMs(step, now);
  const author = authorLabel(step.author);
  // The key fact first: a narrow side bar cuts the description from the end.
  const descriptionParts: string[] = [];
  if (status === 'current' && evaluations.worktree) {
    const { f2p } = bucketCounts(evaluations.worktree);
    descriptionParts.push(evaluations.worktree.status === 'error' ? 'tests: error' : `F2P ${f2p.passed}/${f2p.total}`);
  } else if ((status === 'resolved' || status === 'unresolved') && evaluations.submitted) {
    const { f2p } = bucketCounts(evaluations.submitted);
    descriptionParts.push(`${status} F2P ${f2p.passed}/${f2p.total}`);
  }
  descriptionParts.push(author);
  if (elapsed !== null) descriptionParts.push(formatDuration(elapsed));
  const tooltip = [`**Step ${step.order}** · \`${step.instanceId}\``, '', `Status: ${text}`, `Author: ${author}`];
  if (step.startedAt) tooltip.push(`Started: ${new Date(step.startedAt).toLocaleString()}`);
  if (step.submittedAt) tooltip.push(`Submitted: ${new Date(step.submittedAt).toLocaleString()}`);
  if (elapsed !== null)
    tooltip.push(`Time spent: ${formatDuration(elapsed)}${step.status === 'current' ? ' so far' : ''}`);
  if (step.patch)
    tooltip.push(
      `Patch: ${step.patch.files} file${step.patch.files === 1 ? '' : 's'}, +${step.patch.insertions} −${step.patch.deletions}`,
    );
  if (evaluations.submitted) tooltip.push(testLine('Tests of the submitted step', evaluations.submitted));
  if (evaluations.worktree && step.status === 'current')
    tooltip.push(testLine('Tests of your work', evaluations.worktree));
  if (step.note) tooltip.push(`Note: ${step.note}`);
  return { status, ...LOOK[status], statusText: text, description: descriptionParts.join(' · '), tooltip };
}
