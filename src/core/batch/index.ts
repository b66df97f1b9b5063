// Evaluating whole datasets (docs/reference/batch.md): which step runs next, and the figures of
// `chainlens report` computed from a run directory's records. Pure: the run directory is read and
// written by src/infra/batch, the steps run by src/app/batch.
export * from './keys';
export { BatchScheduler, type LanePlan } from './schedule';
export * from './aggregate';
export { traceChainError, type TraceEntry } from './trace';
export { reportText } from './render/text';
export { evidenceText, evidenceVerdict } from './render/chainsweSections';
export { reportCsvFiles } from './render/csvFiles';
export { reportBody, reportHtml } from './render/html';
export { drillKeys, positionChart, oracleSeqChart } from './render/charts';
export { progressBar, pace, type ProgressCounts } from './progress';
export { formatEta } from './eta';
export {
  summarizeRun,
  describeCounts,
  type RunSummary,
  type GroupSummary,
  type ChainSummary,
  type StepSummary,
} from './runSummary';
export * from './exclusion';
export * from './headline';
export * from './positionTables';
export * from './chainErrorShare';
export * from './breakdowns';
export * from './culpritSearch';
export * from './repeats';
