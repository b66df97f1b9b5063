// What the tools tell an agent. Built from an explicit list of fields so nothing of the chain's
// answers can slip through: as in SWE-bench, an agent sees the problem statement, never the gold
// patch, the test patch or the names of the hidden (FAIL_TO_PASS / PASS_TO_PASS) tests.
import type { AgentFeedback } from '../../protocol/agent';
import type { Chain } from '../../protocol/chain';
import type { StepEvaluation } from '../../protocol/evaluation';
import type { RunState } from '../../protocol/run';
import { authorLabel } from '../run/plan';
import { UserError } from '../util/errors';

export interface CurrentStepView {
  runId: string;
  chainId: string;
  mode: RunState['mode'];
  step: number;
  steps: number;
  instanceId: string;
  repository: string;
  problemStatement: string;
  author: string;
  testFeedback: AgentFeedback;
}

export function currentStepView(
  state: RunState,
  chain: Chain,
  repository: string,
  feedback: AgentFeedback,
): CurrentStepView {
  if (state.currentStep === null)
    throw new UserError(
      `run ${state.runId} is complete: every step has been submitted, there is nothing left to solve`,
      'state',
    );
  const index = state.steps.findIndex((s) => s.order === state.currentStep);
  const step = state.steps[index];
  return {
    runId: state.runId,
    chainId: chain.id,
    mode: state.mode,
    step: step.order,
    steps: state.steps.length,
    instanceId: step.instanceId,
    repository,
    problemStatement: chain.steps[index].problemStatement,
    author: authorLabel(step.author),
    testFeedback: feedback,
  };
}

export interface RunStatusView {
  runId: string;
  chainId: string;
  mode: RunState['mode'];
  currentStep: number | null;
  complete: boolean;
  steps: {
    step: number;
    instanceId: string;
    status: string;
    author: string;
    patch: { files: number; insertions: number; deletions: number } | null;
    elapsedMs: number | null;
    note: string | null;
  }[];
}

export function runStatusView(state: RunState): RunStatusView {
  return {
    runId: state.runId,
    chainId: state.chainId,
    mode: state.mode,
    currentStep: state.currentStep,
    complete: state.currentStep === null,
    steps: state.steps.map((s) => ({
      step: s.order,
      instanceId: s.instanceId,
      status: s.status,
      author: authorLabel(s.author),
      patch: s.patch,
      elapsedMs: s.elapsedMs,
      note: s.note,
    })),
  };
}

export function refuseTestsReason(feedback: AgentFeedback): string | null {
  return feedback === 'none'
    ? 'this run gives agents no test feedback (benchmark-faithful, the default): solve the step from its problem statement and submit it. A person can allow feedback with `chainlens mcp --feedback summary|full` or the chainlens.agent.testFeedback setting.'
    : null;
}

export interface TestFeedbackView {
  step: number;
  resolved: boolean;
  status: StepEvaluation['status'];
  error: string | null;
  /** Counts only for `summary`; `full` adds every test's status. */
  failToPass: { passed: number; failed: number };
  passToPass: { passed: number; failed: number };
  tests?: Record<string, string>;
}

/** An evaluation, cut down to what the run's feedback level allows. */
export function testFeedbackView(
  evaluation: StepEvaluation,
  feedback: Exclude<AgentFeedback, 'none'>,
): TestFeedbackView {
  const count = (b: { success: string[]; failure: string[] }) => ({
    passed: b.success.length,
    failed: b.failure.length,
  });
  const view: TestFeedbackView = {
    step: evaluation.order,
    resolved: evaluation.resolved,
    status: evaluation.status,
    // Environment errors are about the container; patch errors say the work does not apply. Neither names tests.
    error: evaluation.error_kind === 'log' ? 'the test run produced no usable log' : evaluation.error,
    failToPass: count(evaluation.tests_status.FAIL_TO_PASS),
    passToPass: count(evaluation.tests_status.PASS_TO_PASS),
  };
  if (feedback === 'full') view.tests = evaluation.status_map;
  return view;
}
