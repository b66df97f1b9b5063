import { TEST_EXIT_CODE } from '../markers';
import type { LogProblem } from '../logProblem';
import { PY_DIGIT, PY_ML_END, PY_ML_START, PY_WHITESPACE, PY_WORD, pyInt } from '../pyText';
import type { StatusMap } from '../statuses';
import { ERROR, FAILED, PASSED, SKIPPED, XFAIL } from '../statuses';
import type { ProfileRules, TestOutcome } from './rules';

const D = PY_DIGIT;
const S = `[${PY_WHITESPACE}]`;
/**
 * The harness's SUITE_RAN: a runner's own summary with a non-zero count, the only evidence that
 * an empty status map means "ran, nothing to report" rather than "never ran". No Python runner
 * prints one of these, so in v5 a Python log that parses to nothing is unusable.
 */
const SUITE_RAN = new RegExp(
  [
    `Executed [1-9]${D}* of ${D}+`,
    `TOTAL: [1-9]${D}* (?:SUCCESS|FAILED)`,
    `[1-9]${D}* passing`,
    `Tests:${S}+[1-9]${D}*`,
    `Test Suites:${S}+(?:${D}+ ${PY_WORD}+, )*[1-9]${D}* total`,
    `${PY_ML_START}# tests [1-9]${D}*`,
    `[1-9]${D}* specs?, ${D}+ failures?`,
    `': ok${PY_ML_END}`,
  ].join('|'),
  'u',
);

const EXIT_CODE = new RegExp(`${TEST_EXIT_CODE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${S}*(-?${D}+)`, 'u');

/** The test command's exit status the eval script recorded (the first such line), or null. */
export function recordedExitCode(log: string): number | null {
  const m = EXIT_CODE.exec(log);
  return m ? pyInt(m[1]) : null;
}

function checkParsedLog(log: string, statusMap: StatusMap): LogProblem | null {
  if (statusMap.size === 0 && !SUITE_RAN.test(log)) {
    return { kind: 'no-tests-ran', message: 'no test results in the log and no sign that a test suite ran' };
  }
  const exitCode = recordedExitCode(log);
  if (exitCode !== null && exitCode !== 0 && statusMap.size > 0) {
    const anyFailure = [...statusMap.values()].some((s) => s === FAILED || s === ERROR);
    if (!anyFailure) {
      return {
        kind: 'exit-code-contradicts-log',
        message: `the test command exited ${exitCode} but the log reports no failed or errored test`,
      };
    }
  }
  return null;
}

const passing = (status: string) => status === PASSED || status === XFAIL;

/**
 * The status-map key a dataset id stands for. Some dataset ids are parametrized ids cut short
 * (more `[` than `]`); those match by prefix, but only when every match agrees on pass vs fail,
 * and then the first match (in log order) is the one read.
 */
function resolveId(testId: string, statusMap: StatusMap): string | null {
  if (statusMap.has(testId)) return testId;
  if (count(testId, '[') <= count(testId, ']')) return null;
  let first: string | null = null;
  let firstPasses = false;
  for (const [key, status] of statusMap) {
    if (!key.startsWith(testId)) continue;
    if (first === null) {
      first = key;
      firstPasses = passing(status);
    } else if (passing(status) !== firstPasses) return null;
  }
  return first;
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

/** F2P: PASSED/XFAIL pass; missing, FAILED, ERROR and SKIPPED fail; other statuses land nowhere. */
function failToPass(testId: string, statusMap: StatusMap): TestOutcome {
  const key = resolveId(testId, statusMap);
  if (key === null) return 'failure';
  const status = statusMap.get(key)!;
  if (passing(status)) return 'success';
  if (status === FAILED || status === ERROR || status === SKIPPED) return 'failure';
  return 'neither';
}

/** P2P: as F2P, except that a skipped test is kept, not a regression. */
function passToPass(testId: string, statusMap: StatusMap): TestOutcome {
  const key = resolveId(testId, statusMap);
  if (key !== null && statusMap.get(key) === SKIPPED) return 'success';
  return failToPass(testId, statusMap);
}

/** The current SWE-bench harness (5.x). */
export const v5Rules: ProfileRules = {
  profile: 'swebench-v5',
  checkParsedLog,
  failToPass,
  passToPass,
};
