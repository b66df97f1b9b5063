// SWE-CI (docs/sweci.md): the metrics, the score of a task and of many, the gap view, the plots.
export {
  DEFAULT_ITERATION_LIMIT,
  SENSITIVITY_GAMMAS,
  evoScore,
  normalizedChange,
  regressionsBetween,
  scoredCounts,
  testGap,
} from './metrics';
export { aggregateScores, scoreTask, type SweciAggregate } from './score';
export { failureSections, gapEntries, headlineOf, readTestLog, type TestLogOutcome } from './testLog';
export { parseCsv, readMetadataCsv, type MetadataRow } from './metadataCsv';
export { evoScoreByGammaChart, passingTestsChart } from './plots';
export { sweciTestSpec } from './testSpec';
