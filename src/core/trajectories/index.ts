// Agent trajectories (SWE-agent, mini-swe-agent, OpenHands) normalised into one Trajectory model.
export { detectTrajectoryFormat, type TrajectoryDetection } from './detectFormat';
export { parseTrajectory, trajectoriesFromDocument, trajectoriesFromRecord, jsonlLineProblem } from './parseTrajectory';
export { reconstructWorkspace, instanceIdFromFileName } from './adapters/draft';
export { openHandsEventLog } from './adapters/openHandsSdk';
export type { WorkspaceTimeline } from './workspace/replay';
export { JsonSplitter, formatJsonPath, type JsonPathKey, type JsonPiece, type SplitProblem } from './json/jsonSplitter';
export {
  JsonAssembler,
  skipTrajectoryValue,
  splitTrajectoryDocument,
  wholeTrajectoryValue,
} from './json/jsonAssembler';
export { readJsonDocument } from './json/readJsonDocument';
