// Evaluating chain steps in containers and keeping the results (issue: grade every step).
export { evaluateStep, latestEvaluations, type StepEvaluationRequest } from './stepEvaluator';
export { EvalStore } from './evalStore';
