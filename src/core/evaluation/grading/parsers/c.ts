import { PY_DIGIT, PY_DOT, PY_NS, PY_S, pyStrip } from '../pyText';
import { FAILED, PASSED, SKIPPED, type StatusMap } from '../statuses';

const D = PY_DIGIT;
const REDIS = new RegExp(`^\\[(ok|err|skip|ignore)\\]:${PY_S}(${PY_DOT}+?)(?:${PY_S}\\((${D}+${PY_S}*m?s)\\))?$`, 'u');
const REDIS_FAILED_AT = new RegExp(`${PY_S}+in${PY_S}+${PY_NS}+$`, 'u');

/**
 * c.py parse_log_redis (redis, valkey): the Tcl suite's `[ok]: name (12 ms)`, `[err]: name in
 * tests/x.tcl` (the file is cut off), `[skip]`/`[ignore]` as SKIPPED.
 */
export function parseRedis(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = REDIS.exec(pyStrip(line));
    if (!m) continue;
    const [, status, name] = m;
    if (status === 'ok') map.set(name, PASSED);
    else if (status === 'err') map.set(name.replace(REDIS_FAILED_AT, ''), FAILED);
    else map.set(name, SKIPPED);
  }
  return map;
}

const JQ = new RegExp(`^${PY_S}*(PASS|FAIL):${PY_S}(${PY_DOT}+)$`, 'u');

/** c.py parse_log_jq: automake's `make check` lines, `PASS: tests/x.test`. */
export function parseJq(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = JQ.exec(pyStrip(line));
    if (m) map.set(m[2], m[1] === 'PASS' ? PASSED : FAILED);
  }
  return map;
}

const MICROPYTHON = new RegExp(`^(pass|FAIL|skip)${PY_S}+(${PY_DOT}+)$`, 'u');
const MICROPYTHON_STATUS: Record<string, string> = { pass: PASSED, FAIL: FAILED, skip: SKIPPED };

/** c.py parse_log_micropython_test: run-tests.py's `pass  basics/x.py`, `FAIL ...`, `skip ...`. */
export function parseMicropythonTest(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = MICROPYTHON.exec(pyStrip(line));
    if (m) map.set(m[2], MICROPYTHON_STATUS[m[1]]);
  }
  return map;
}

// Greedy on both sides: the last [ OK ]/[ FAILED ] bracket of the line, the name up to its last " (".
const GOOGLETEST = new RegExp(
  `^${PY_DOT}*\\[${PY_S}*(OK|FAILED)${PY_S}*\\]${PY_S}(${PY_DOT}*)${PY_S}\\(${PY_DOT}*\\)$`,
  'u',
);

/**
 * c.py parse_log_googletest (fmt, under `ctest -V`, whose lines start with "N: "): a test's
 * `[       OK ] Suite.Name (0 ms)` or `[  FAILED  ] Suite.Name (0 ms)`. Skipped tests and the
 * summary's `[  FAILED  ] Suite.Name` (no time) record nothing.
 */
export function parseGoogletest(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = GOOGLETEST.exec(pyStrip(line));
    if (m) map.set(m[2], m[1] === 'OK' ? PASSED : FAILED);
  }
  return map;
}
