import { KNOWN_TEST_STATUSES, type TestStatus } from '../../../protocol/grading';

export const PASSED = 'PASSED';
export const FAILED = 'FAILED';
export const SKIPPED = 'SKIPPED';
export const ERROR = 'ERROR';
export const XFAIL = 'XFAIL';

/** Test id -> status in the order the parser first met each id (Python dicts keep that order, and v5 grading reads it). */
export type StatusMap = Map<string, TestStatus>;

/** The harness's `any(line.startswith(x.value) for x in TestStatus)`. */
export function startsWithStatus(line: string): boolean {
  return KNOWN_TEST_STATUSES.some((s) => line.startsWith(s));
}

export function endsWithStatus(line: string): boolean {
  return KNOWN_TEST_STATUSES.some((s) => line.endsWith(s));
}

const SKIP_SUMMARY_COUNT = /^\[\p{Nd}+\]$/u;

/**
 * pytest's folded `SKIPPED [N] path:line: reason` summary, where `[N]` is a count, not a test.
 * v5 drops these lines; v4 records a test named `[N]`.
 */
export function isSkipSummary(status: string, name: string): boolean {
  return status === SKIPPED && SKIP_SUMMARY_COUNT.test(name);
}
