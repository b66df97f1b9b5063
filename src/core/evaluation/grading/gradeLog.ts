import type { EvalType, GradeResult, GradingProfile, LogParserName, TestStatus } from '../../../protocol/grading';
import type { LogProblem } from './logProblem';
import { inspectLog } from './logUsability';
import { LOG_PARSERS, type ParserContext } from './parsers/index';
import { resolutionOf } from './resolution';
import type { StatusMap } from './statuses';
import { buildTestsStatus, unusableTestsStatus } from './testsReport';

export interface GradeLogInput {
  log: string;
  profile: GradingProfile;
  parser: LogParserName;
  failToPass: readonly string[];
  passToPass: readonly string[];
  evalType?: EvalType;
  /** The instance id: jekyll and immutable-js pick their runner by it. */
  instanceId?: string;
  /** The instance's version: next and lighthouse pick their runner by it. */
  version?: string;
}

/** A grade plus, when the log was not usable, why (not part of the harness's output). */
export interface GradeExplained {
  readonly grade: GradeResult;
  readonly problem: LogProblem | null;
}

/** One eval log -> the harness's verdict: usable?, status map, F2P/P2P buckets, resolution. */
export function gradeLog(input: GradeLogInput): GradeResult {
  return gradeLogExplained(input).grade;
}

export function gradeLogExplained(input: GradeLogInput): GradeExplained {
  const ctx: ParserContext = { instanceId: input.instanceId, version: input.version };
  const inspection = inspectLog(input.log, input.parser, input.profile, ctx);
  if (!inspection.usable) {
    const grade: GradeResult = {
      log_ok: false,
      status_map: {},
      tests_status: unusableTestsStatus(input.failToPass, input.passToPass),
      resolution: 'RESOLVED_NO',
    };
    return { grade, problem: inspection.problem };
  }
  const tests = buildTestsStatus(
    inspection.statusMap,
    input.failToPass,
    input.passToPass,
    input.evalType ?? 'pass_and_fail',
    input.profile,
  );
  const grade: GradeResult = {
    log_ok: true,
    status_map: toRecord(inspection.statusMap),
    tests_status: tests,
    resolution: resolutionOf(tests),
  };
  return { grade, problem: null };
}

/** The status map one parser reads from a text (no usability checks, no marker slicing). */
export function parseTestLog(
  log: string,
  parser: LogParserName,
  profile: GradingProfile,
  ctx: ParserContext = {},
): Record<string, TestStatus> {
  return toRecord(LOG_PARSERS[parser](log, profile, ctx));
}

// fromEntries defines own properties, so an id like "__proto__" stays a plain key.
function toRecord(map: StatusMap): Record<string, TestStatus> {
  return Object.fromEntries(map);
}
