export { connectDocker, dockerHostDescription } from './connect';
export { ensureImage, imageUnavailableError, type PullProgress } from './images';
export { detectRepoPath } from './repoPath';
export { sweepContainers, managedLabels, LABEL_MANAGED, LABEL_RUN } from './managed';
export { evaluateState, DEFAULT_TIMEOUT_S, type EvaluateStateOptions, type EvaluationResult } from './evaluateState';
