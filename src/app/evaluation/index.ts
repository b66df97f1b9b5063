// The evaluation use cases: one step, several steps with their chain report, the run's report.
// The editor loads this module lazily (dockerode and the grading parsers are most of the bundle).
export { defaultStepOrder, evaluateStep, evaluateSteps, type StepEvaluationRequest } from './evaluateSteps';
export { exportRunReport } from './runReport';
export { StepContainers } from './stepContainers';
