import type { GradingProfile, LogParserName } from '../../../protocol/grading';
import type { LogProblem, LogProblemKind } from './logProblem';
import {
  APPLY_PATCH_FAILED,
  END_TEST_OUTPUT,
  RESET_FAILED,
  START_TEST_OUTPUT,
  TESTS_ERRORED,
  TESTS_TIMED_OUT,
} from './markers';
import { ParserCrash } from './parserCrash';
import { LOG_PARSERS, type ParserContext } from './parsers/index';
import { PROFILE_RULES } from './profiles/index';
import type { StatusMap } from './statuses';

export interface LogInspection {
  /** The harness's "found" flag. */
  readonly usable: boolean;
  /** Why not, when not usable. */
  readonly problem: LogProblem | null;
  /** What grading reads; empty when not usable. */
  readonly statusMap: StatusMap;
}

const BAD_MARKERS: readonly [string, LogProblemKind, string][] = [
  [APPLY_PATCH_FAILED, 'patch-apply-failed', 'the patch did not apply'],
  [RESET_FAILED, 'reset-failed', 'the repository could not be reset'],
  [TESTS_ERRORED, 'tests-errored', 'the test run errored'],
  [TESTS_TIMED_OUT, 'timed-out', 'the test run timed out'],
];

// run_evaluation.py appends this when it kills a run, and then grades nothing.
const TIMEOUT_NOTICE = /\n\nTimeout error: (\d+(?:\.\d+)?) seconds exceeded\.\s*$/;

/**
 * The harness's get_logs_eval: is this eval log usable, and what does it say
 * (docs/reference/grading.md, "From log to verdict"). Both versions: no failure marker, both test-output markers, parse between the
 * markers and fall back to the whole log when that yields nothing. v5 adds its checks on the
 * parsed result (suite ran, exit code agrees). A timed-out run, which the harness never grades,
 * is unusable too.
 */
export function inspectLog(
  rawLog: string,
  parser: LogParserName,
  profile: GradingProfile,
  ctx: ParserContext = {},
): LogInspection {
  const log = universalNewlines(rawLog);
  const timeout = TIMEOUT_NOTICE.exec(log);
  if (timeout) return unusable('timed-out', `the test run was killed after ${timeout[1]} seconds`);
  const bad = BAD_MARKERS.find(([marker]) => log.includes(marker));
  if (bad) return unusable(bad[1], `${bad[2]} (the log says "${bad[0]}")`);
  if (!(log.includes(START_TEST_OUTPUT) && log.includes(END_TEST_OUTPUT))) {
    return unusable('markers-missing', `the log lacks the "${START_TEST_OUTPUT}" / "${END_TEST_OUTPUT}" markers`);
  }

  const parse = LOG_PARSERS[parser];
  let statusMap: StatusMap;
  try {
    const between = log.split(START_TEST_OUTPUT)[1].split(END_TEST_OUTPUT)[0];
    statusMap = parse(between, profile, ctx);
    // Some runners' results land outside the markers (stdout/stderr interleaving).
    if (statusMap.size === 0) statusMap = parse(log, profile, ctx);
  } catch (e) {
    if (e instanceof ParserCrash) return unusable('parser-crashed', e.message);
    throw e;
  }

  const problem = PROFILE_RULES[profile].checkParsedLog(log, statusMap);
  if (problem) return { usable: false, problem, statusMap: new Map() };
  return { usable: true, problem: null, statusMap };
}

/** The harness reads the log in Python's text mode, which turns \r\n and a lone \r into \n. */
function universalNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

function unusable(kind: LogProblemKind, message: string): LogInspection {
  return { usable: false, problem: { kind, message }, statusMap: new Map() };
}
