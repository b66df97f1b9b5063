import type { GradingProfile } from '../../../../protocol/grading';
import { PY_DOT, PY_NS, PY_S, pyStrip } from '../pyText';
import { FAILED, PASSED, type StatusMap } from '../statuses';

// The test name comes from the `set -x` trace of each `mvn test -Dtest=Class#method` command.
const MAVEN_TEST = new RegExp(`^${PY_DOT}*-Dtest=(${PY_NS}+)${PY_DOT}*$`, 'u');
const MAVEN_RESULT = new RegExp(`^${PY_DOT}*BUILD (SUCCESS|FAILURE)$`, 'u');
const BUILD_STATUS: Record<string, string> = { SUCCESS: PASSED, FAILURE: FAILED };

/**
 * java.py parse_log_maven: Maven prints no per-test lines, so the harness runs one `mvn test
 * -Dtest=...` per test and credits each `BUILD SUCCESS|FAILURE` to a test named by a -Dtest line.
 * v4 credits it to the last -Dtest line seen (before any, to "---NO TEST NAME FOUND YET---").
 * v5 pairs names and results first in, first out, and pairs leftovers of either at the end.
 */
export function parseMaven(log: string, profile: GradingProfile): StatusMap {
  return profile === 'swebench-v4' ? mavenV4(log) : mavenV5(log);
}

function mavenV4(log: string): StatusMap {
  const map: StatusMap = new Map();
  let current = '---NO TEST NAME FOUND YET---';
  for (const raw of log.split('\n')) {
    const line = pyStrip(raw);
    const name = MAVEN_TEST.exec(line);
    if (name) current = name[1];
    const result = MAVEN_RESULT.exec(line);
    if (result) map.set(current, BUILD_STATUS[result[1]]);
  }
  return map;
}

function mavenV5(log: string): StatusMap {
  const map: StatusMap = new Map();
  const pending: string[] = [];
  const unmatched: string[] = [];
  for (const raw of log.split('\n')) {
    const line = pyStrip(raw);
    const name = MAVEN_TEST.exec(line);
    if (name) pending.push(name[1]);
    const result = MAVEN_RESULT.exec(line);
    if (!result) continue;
    if (pending.length) map.set(pending.shift()!, BUILD_STATUS[result[1]]);
    else unmatched.push(result[1]);
  }
  while (pending.length && unmatched.length) map.set(pending.shift()!, BUILD_STATUS[unmatched.shift()!]);
  return map;
}

const ANT_RESULT = new RegExp(`^${PY_S}*\\[junit\\]${PY_S}+\\[(PASS|FAIL|ERR)\\]${PY_S}+(${PY_DOT}*)$`, 'u');

/** java.py parse_log_ant: lombok's test formatter, `[junit] [PASS|FAIL|ERR] name`; ERR counts as FAILED. */
export function parseAnt(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = ANT_RESULT.exec(pyStrip(line));
    if (m) map.set(m[2], m[1] === 'PASS' ? PASSED : FAILED);
  }
  return map;
}

// `[^>]` keeps shell-trace lines out; the greedy name keeps all but the last whitespace before the status.
const GRADLE_FULL = new RegExp(`^([^>]${PY_DOT}+)${PY_S}+(PASSED|FAILED)$`, 'u');
const GRADLE_NAME = new RegExp(`^([^>]${PY_NS}*${PY_S}+>${PY_S}+${PY_NS}+)$`, 'u');
const GRADLE_STATUS = /^(PASSED|FAILED)$/;

/**
 * java.py parse_log_gradle_custom: Gradle's test events after the harness's pre-install made them
 * print (`com.x.FooTest > testBar PASSED`). v5 also pairs a bare `Class > method` line with a
 * PASSED/FAILED line of its own that follows it (output interleaved by concurrent tests).
 */
export function parseGradleCustom(log: string, profile: GradingProfile): StatusMap {
  const v5 = profile !== 'swebench-v4';
  const map: StatusMap = new Map();
  let pending: string | null = null;
  for (const raw of log.split('\n')) {
    const line = pyStrip(raw);
    const full = GRADLE_FULL.exec(line);
    if (full) {
      map.set(full[1], full[2]);
      pending = null;
      continue;
    }
    if (!v5) continue;
    const name = GRADLE_NAME.exec(line);
    if (name) {
      pending = name[1];
      continue;
    }
    if (pending !== null && GRADLE_STATUS.test(line)) {
      map.set(pending, line);
      pending = null;
    }
  }
  return map;
}
