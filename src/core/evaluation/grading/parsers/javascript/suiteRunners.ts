import { ParserCrash } from '../../parserCrash';
import { ansiEscape, PY_DIGIT, PY_DOT, PY_ML_START, PY_S, pyIndent, pyStrip } from '../../pyText';
import { FAILED, PASSED, type StatusMap } from '../../statuses';
import { nestByIndent } from './mochaFamily';

const D = PY_DIGIT;
const DOT = PY_DOT;
const S = PY_S;

const MS = new RegExp(`\\(${D}+ms\\)`, 'u');
const CALYPSO_PASS_MS = new RegExp(`^${S}+✓${S}(${DOT}*)\\(${D}+ms\\)$`, 'u');
const CALYPSO_PASS = new RegExp(`^${S}+✓${S}(${DOT}*)`, 'u');
const CALYPSO_FAIL_MS = new RegExp(`^${S}+✕${S}(${DOT}*)\\(${D}+ms\\)$`, 'u');
const CALYPSO_FAIL = new RegExp(`^${S}+✕${S}(${DOT}*)`, 'u');

/**
 * javascript.py parse_log_calypso (`jest --verbose` per package): after each ` ./node_modules/.bin/jest `
 * (the `set -x` trace), up to `Test Suites`/`  ● `, `✓`/`✕` lines named `suite - ... - title` by
 * indentation; the suite stack carries over from one run to the next. A title with a timing that
 * is not at the end of its line, or a mark with no indentation before it, fails the harness's
 * regex and it raises (AttributeError on None.group).
 */
export function parseCalypso(log: string): StatusMap {
  const map: StatusMap = new Map();
  let suite: [string, number][] = [];
  const record = (line: string, withMs: RegExp, plain: RegExp, status: string) => {
    const m = (MS.test(line) ? withMs : plain).exec(line);
    if (!m) throw new ParserCrash('calypso', line, "AttributeError: 'NoneType' object has no attribute 'group'");
    map.set(pyStrip([suite.map((s) => s[0]).join(' - '), m[1]].join(' - ')), status);
  };
  for (const run of log.split(' ./node_modules/.bin/jest ').slice(1)) {
    for (const line of run.split('\n')) {
      if (line.startsWith('Test Suites') || line.startsWith('  ● ')) break;
      const stripped = pyStrip(line);
      if (stripped.startsWith('✓')) record(line, CALYPSO_PASS_MS, CALYPSO_PASS, PASSED);
      else if (stripped.startsWith('✕')) record(line, CALYPSO_FAIL_MS, CALYPSO_FAIL, FAILED);
      else {
        const indent = pyIndent(line);
        if (indent > 0) suite = nestByIndent(suite, stripped, indent);
      }
    }
  }
  return map;
}

const NEXT_ASSERTION = new RegExp(`AssertionError:${S}+#[\\s\\S]*?\\n\\n`, 'gu');
const NEXT_SKIPPED_PREFIXES = ['ERROR', 'LOG', 'WARN', 'Check', 'in'];
const NEXT_FAIL = new RegExp(`^${DOT}*?✗${S}*(${DOT}*)`, 'u');
const NEXT_PASS = new RegExp(`^${DOT}*?✓${S}*(${DOT}*)`, 'u');

/**
 * javascript.py parse_log_next_v1 (karma's dots-and-marks output of alibaba-fusion/next): ANSI
 * codes and assertion blocks removed, each ` xvfb-run ` run from its last `Starting browser
 * Chrome`, `✗`/`✓` lines named by indentation with " - ", until a `TOTAL` line.
 */
export function parseNextV1(rawLog: string): StatusMap {
  const map: StatusMap = new Map();
  let suite: [string, number][] = [];
  const log = ansiEscape(rawLog).replace(NEXT_ASSERTION, '');
  for (const run of log.split(' xvfb-run ').slice(1)) {
    const lines = lastAfter(run, 'Starting browser Chrome').split('\n');
    for (const line of lines) {
      if (line.startsWith('TOTAL')) break;
      const stripped = pyStrip(line);
      if (NEXT_SKIPPED_PREFIXES.some((p) => stripped.startsWith(p))) continue;
      const failed = NEXT_FAIL.exec(line);
      if (failed) {
        map.set([...suite.map((s) => s[0]), failed[1]].join(' - '), FAILED);
        continue;
      }
      const passed = NEXT_PASS.exec(line);
      if (passed) {
        map.set([...suite.map((s) => s[0]), passed[1]].join(' - '), PASSED);
        continue;
      }
      const indent = pyIndent(line);
      if (indent > 0) suite = nestByIndent(suite, stripped, indent);
    }
  }
  return map;
}

function lastAfter(s: string, sep: string): string {
  const i = s.lastIndexOf(sep);
  return i < 0 ? s : s.slice(i + sep.length);
}

const NEXT_V2_SUITE = new RegExp(`Running:(${DOT}*)\\)\\n{3}${S}{2}(${DOT}*)\\n`, 'gu');
const NEXT_V2_FAIL = new RegExp(`${PY_ML_START}${S}{4}${D}+\\)${S}(${DOT}*)`, 'gu');
const NEXT_V2_PASS = new RegExp(`${PY_ML_START}${S}{4}✓${S}(${DOT}*)\\(`, 'gu');

/**
 * javascript.py parse_log_next_v2 (cypress runs of next 1.27): each `Running: spec (n of m)`
 * header's suite line, then that spec's `    1) title` failures and `    ✓ title (` passes,
 * named `suite: title`.
 */
export function parseNextV2(log: string): StatusMap {
  const map: StatusMap = new Map();
  const pieces = log.split(new RegExp(NEXT_V2_SUITE.source, 'u'));
  const suites = [...log.matchAll(NEXT_V2_SUITE)].map((m) => m[2]);
  suites.forEach((suiteName, idx) => {
    const body = pieces[(idx + 1) * 3];
    for (const m of body.matchAll(NEXT_V2_FAIL)) map.set(`${suiteName}: ${pyStrip(m[1])}`, FAILED);
    for (const m of body.matchAll(NEXT_V2_PASS)) map.set(`${suiteName}: ${pyStrip(m[1])}`, PASSED);
  });
  return map;
}

const PLOTLY_SUITE = new RegExp(`^(${S}+)-${S}+(${DOT}*?)${S}+:`, 'u');
const PLOTLY_TEST = new RegExp(`^(${S}+)\\*${S}+(${DOT}*?)${S}+:${S}*(${DOT}*)`, 'u');

/**
 * javascript.py parse_plotly_js (mapped for plotly/plotly.js, not in the registry): `- suite :`
 * and `* test : ok` lines, nested by indentation, named `suite.test`; FAILED unless the status
 * says "ok" and not "failed".
 */
export function parsePlotlyJs(log: string): StatusMap {
  const map: StatusMap = new Map();
  let stack: string[] = [];
  let level = 0;
  for (const line of log.split('\n')) {
    const suiteMatch = PLOTLY_SUITE.exec(line);
    if (suiteMatch) {
      const spaces = suiteMatch[1].length;
      while (stack.length && spaces <= level) stack.pop();
      stack = [...stack, suiteMatch[2]];
      level = spaces;
      continue;
    }
    const testMatch = PLOTLY_TEST.exec(line);
    if (!testMatch) continue;
    const spaces = testMatch[1].length;
    while (stack.length && spaces <= level) stack.pop();
    const status = testMatch[3].toLowerCase();
    map.set([...stack, testMatch[2]].join('.'), !status.includes('ok') || status.includes('failed') ? FAILED : PASSED);
  }
  return map;
}
