export { connectDocker, dockerHostDescription } from './connect';
export { ensureImage, imageUnavailableError, type PullProgress } from './images';
export { detectRepoPath, locateRepoInImage, type RepoInImage } from './repoPath';
export { sweepContainers, createManagedContainer, removeManagedContainer } from './managed';
export { managedLabels, isOrphan, LABEL_MANAGED, LABEL_RUN, LABEL_PID, LABEL_PID_START, LABEL_HOST } from './owner';
export { sweepOrphanContainers, sweepOrphansInBackground, orphanSweepSettled } from './orphans';
export {
  evaluateState,
  DEFAULT_TIMEOUT_S,
  type ContainerRunOptions,
  type EvaluationResult,
  type StateUnderTest,
} from './evaluateState';
export { assertEngineReady, EVALUATION_ENGINES, type EvaluationEngine } from './executor';
export { WarmContainer, type StartedContainer } from './warmContainer';
