import type { GradingProfile } from '../../../../../protocol/grading';
import { PY_DIGIT, PY_DOT, PY_ML_START, PY_S, pyStrip } from '../../pyText';
import { FAILED, PASSED, SKIPPED, type StatusMap } from '../../statuses';

const D = PY_DIGIT;
const DOT = PY_DOT;

const JEST = new RegExp(`^${PY_S}*(✓|✕|○)${PY_S}(${DOT}+?)(?:${PY_S}\\((${D}+${PY_S}*m?s)\\))?$`, 'u');
const JEST_STATUS: Record<string, string> = { '✓': PASSED, '✕': FAILED, '○': SKIPPED };

/**
 * javascript.py parse_log_jest (`jest --verbose`): `✓ name (5 ms)`, `✕ name`, `○ skipped name`
 * (`○ todo` too, as SKIPPED). Only the test's own title is kept, so equal titles in different
 * describe blocks collide and the later one wins. v5 strips the title; v4 keeps whitespace left
 * before the duration.
 */
export function parseJest(log: string, profile: GradingProfile): StatusMap {
  const strip = profile !== 'swebench-v4';
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = JEST.exec(pyStrip(line));
    if (m) map.set(strip ? pyStrip(m[2]) : m[2], JEST_STATUS[m[1]]);
  }
  return map;
}

const JEST_JSON = new RegExp(`^\\[(PASSED|FAILED)\\]${PY_S}(${DOT}+)$`, 'u');

/**
 * javascript.py parse_log_jest_json: `jest --json` through the harness's JEST_JSON_JQ_TRANSFORM,
 * `[PASSED] describe > title`. Other statuses ([PENDING], [TODO]) record nothing.
 */
export function parseJestJson(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = JEST_JSON.exec(pyStrip(line));
    if (m) map.set(m[2], m[1]);
  }
  return map;
}

const VITEST = new RegExp(`^${PY_S}*(✓|×|↓)${PY_S}(${DOT}+?)(?:${PY_S}(${D}+${PY_S}*m?s?|\\[skipped\\]))?$`, 'u');
const VITEST_STATUS: Record<string, string> = { '✓': PASSED, '×': FAILED, '↓': SKIPPED };

/**
 * javascript.py parse_log_vitest (`--reporter=verbose`): `✓ file > describe > name 3ms`,
 * `× ...`, `↓ ... [skipped]`; the title is not stripped.
 */
export function parseVitest(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = VITEST.exec(pyStrip(line));
    if (m) map.set(m[2], VITEST_STATUS[m[1]]);
  }
  return map;
}

const TAP = new RegExp(`^(ok|not ok) (${D}+) (${DOT}+)$`, 'u');

/** javascript.py parse_log_tap (three.js via QUnit, axios via mocha -R tap): `ok 3 name`, `not ok 4 name`. A `# SKIP` directive stays in the name. */
export function parseTap(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = TAP.exec(pyStrip(line));
    if (m) map.set(m[3], m[1] === 'ok' ? PASSED : FAILED);
  }
  return map;
}

// The first pattern a line matches wins; the bare `^PASS\s(.*)` keeps any timing it did not strip.
const FILE_LEVEL: [RegExp, string][] = [
  [`^PASS${PY_S}(${DOT}*)${PY_S}\\([${D}.]+ms\\)`, PASSED],
  [`^PASS${PY_S}(${DOT}*)${PY_S}\\([${D}.]+${PY_S}s\\)`, PASSED],
  [`^PASS${PY_S}(${DOT}*)${PY_S}\\([${D}.]+s\\)`, PASSED],
  [`^PASS${PY_S}(${DOT}*)`, PASSED],
  [`^FAIL${PY_S}(${DOT}*)${PY_S}\\([${D}.]+ms\\)`, FAILED],
  [`^FAIL${PY_S}(${DOT}*)${PY_S}\\([${D}.]+${PY_S}s\\)`, FAILED],
  [`^FAIL${PY_S}(${DOT}*)${PY_S}\\([${D}.]+s\\)`, FAILED],
  [`^FAIL${PY_S}(${DOT}*)`, FAILED],
].map(([p, s]) => [new RegExp(p, 'u'), s]);

/**
 * javascript.py parse_log_react_pdf and parse_log_carbon (one body, also scratch-gui, prettier and
 * lighthouse's jest runs): jest's per-file `PASS path (1.2 s)` / `FAIL path` lines, so a test id is
 * a test file. Matched on the raw line.
 */
export function parseJestFiles(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    for (const [pattern, status] of FILE_LEVEL) {
      const m = pattern.exec(line);
      if (m) {
        map.set(m[1], status);
        break;
      }
    }
  }
  return map;
}

const EMOTION_FAIL = new RegExp(`${PY_ML_START}FAIL${PY_S}(${DOT}*)`, 'gu');
const EMOTION_PASS = new RegExp(`${PY_ML_START}PASS${PY_S}(${DOT}*)`, 'gu');

/** javascript.py parse_log_emotion: every `FAIL x`, then every `PASS x` (which wins over a FAIL of the same x). */
export function parseEmotion(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const m of log.matchAll(EMOTION_FAIL)) map.set(pyStrip(m[1]), FAILED);
  for (const m of log.matchAll(EMOTION_PASS)) map.set(pyStrip(m[1]), PASSED);
  return map;
}

const GROMMET_TIMING = new RegExp(`${PY_S}\\([${D}.]+${PY_S}?(?:ms|s)\\)$`, 'u');

/** javascript.py parse_log_grommet: as emotion, with a trailing ` (1.2 s)` cut off the name. */
export function parseGrommet(log: string): StatusMap {
  const map: StatusMap = new Map();
  const name = (m: RegExpMatchArray) => pyStrip(m[1]).replace(GROMMET_TIMING, '');
  for (const m of log.matchAll(EMOTION_FAIL)) map.set(name(m), FAILED);
  for (const m of log.matchAll(EMOTION_PASS)) map.set(name(m), PASSED);
  return map;
}
