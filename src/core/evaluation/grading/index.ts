// The grading engine: SWE-bench harness log parsing and grading, versions 4 and 5, every language
// the harness grades (docs/reference/grading.md).
// Pure: log text in, report out. `chainlens grade` and `chainlens eval` both go through here.
export type {
  EvalType,
  GradeResult,
  GradingProfile,
  LogParserName,
  Resolution,
  StepReport,
  TestsStatus,
  TestStatus,
} from '../../../protocol/grading';
export { gradeLog, gradeLogExplained, parseTestLog, type GradeExplained, type GradeLogInput } from './gradeLog';
export { inspectLog, type LogInspection } from './logUsability';
export type { LogProblem, LogProblemKind } from './logProblem';
export {
  parserForRepo,
  mappedParserForRepo,
  mappedRepositories,
  parserByName,
  evalTypeForRepo,
  PYTHON_LOG_PARSERS,
} from './repoParsers';
export { PARSERS_NEEDING_INSTANCE, PARSERS_NEEDING_VERSION, type ParserContext } from './parsers/index';
export { buildTestsStatus, unusableTestsStatus } from './testsReport';
export { resolutionOf, bucketRatio } from './resolution';
export { buildInstanceReport } from './instanceReport';
export { recordedExitCode } from './profiles/v5';
export * from './markers';
