import { afterFirstOrUndefined, PY_DIGIT, PY_DOT, PY_S, pyIndent, pyStrip } from '../../pyText';
import { FAILED, PASSED, type StatusMap } from '../../statuses';

const D = PY_DIGIT;
const DOT = PY_DOT;

const PASSING_SUMMARY = new RegExp(`\\n[ \\t]*${D}+ passing`, 'u');
const TIMING = new RegExp(`\\(${D}+ms\\)`, 'gu');
const FAILURE_NUMBER = new RegExp(`^${D}+\\)`, 'u');

/**
 * javascript.py parse_log_highlightjs (mocha's spec reporter): everything from the first
 * `N passing` line on is dropped, then `✓ title` is PASSED and `1) title` FAILED, each named
 * `suite.title` where the suite is the last line indented by at least two spaces (only one level:
 * every indented line replaces it, as the harness's second branch can never be taken).
 */
export function parseHighlightjs(log: string): StatusMap {
  const body = log.split(PASSING_SUMMARY)[0];
  const map: StatusMap = new Map();
  let suite: string[] = [];
  const withoutTiming = (name: string) => pyStrip(name.replace(TIMING, ''));
  for (const line of body.split('\n')) {
    const stripped = pyStrip(line);
    if (stripped.startsWith('✓') || stripped.startsWith('✔')) {
      const check = stripped.startsWith('✓') ? '✓' : '✔';
      map.set([...suite, withoutTiming(afterFirstOrUndefined(line, check)!)].join('.'), PASSED);
    } else if (FAILURE_NUMBER.test(stripped)) {
      map.set([...suite, withoutTiming(afterFirstOrUndefined(line, ')')!)].join('.'), FAILED);
    } else if (line && line.startsWith('  ')) {
      suite = [stripped];
    }
  }
  return map;
}

const MARKED = new RegExp(`^${D}+\\)${PY_S}(${DOT}*)`, 'u');

/** javascript.py parse_log_marked (jasmine, fail-only): each `1) name` line at column 0 is FAILED. */
export function parseMarked(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = MARKED.exec(line);
    if (m) map.set(pyStrip(m[1]), FAILED);
  }
  return map;
}

const ESLINT = new RegExp(`(${PY_S}{2}${D}+\\))([\\s\\S]*?)${PY_S}+(?:(${DOT}*)Error)`, 'gu');
const WS_RUN = new RegExp(`${PY_S}+`, 'gu');

/**
 * javascript.py parse_log_eslint (mocha's min reporter, fail-only): each `  1) title` up to the
 * next `...Error`, whitespace runs folded to one space, is FAILED.
 */
export function parseEslint(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const m of log.matchAll(ESLINT)) map.set(pyStrip(m[2].replace(WS_RUN, ' ')), FAILED);
  return map;
}

const LIGHTHOUSE_RUN = new RegExp(`running${PY_S}${D}+${PY_S}test${PY_S}files`, 'u');
const LIGHTHOUSE_PASSING = new RegExp(`${D}+${PY_S}passing`, 'u');
const LIGHTHOUSE_CASES: [RegExp, string][] = [
  [`^✔${PY_S}(${DOT}*)${PY_S}\\(${D}+m+s\\)`, PASSED],
  [`^✔${PY_S}(${DOT}*)`, PASSED],
  [`^${D}+\\)${PY_S}(${DOT}*)${PY_S}\\(${D}+m+s\\)`, FAILED],
  [`^${D}+\\)${PY_S}(${DOT}*)`, FAILED],
].map(([p, s]) => [new RegExp(p, 'u'), s]);

/**
 * javascript.py parse_log_lighthouse_mocha: each `running N test files` run up to `N passing`,
 * `✔ title` / `1) title` named `suite - ... - title` by indentation.
 */
export function parseLighthouseMocha(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const run of log.split(LIGHTHOUSE_RUN).slice(1)) {
    const body = pyStrip(run.split(LIGHTHOUSE_PASSING)[0]);
    let suite: [string, number][] = [];
    for (const line of body.split('\n')) {
      const stripped = pyStrip(line);
      let matched = false;
      for (const [pattern, status] of LIGHTHOUSE_CASES) {
        const m = pattern.exec(stripped);
        if (m) {
          map.set([...suite.map((s) => s[0]), m[1]].join(' - '), status);
          matched = true;
          break;
        }
      }
      const indent = pyIndent(line);
      if (!matched && indent > 0) suite = nestByIndent(suite, stripped, indent);
    }
  }
  return map;
}

/** The harness's suite stack: pop every entry indented at least as deep, then push this line. */
export function nestByIndent(suite: [string, number][], name: string, indent: number): [string, number][] {
  if (suite.length === 0) return [[name, indent]];
  while (suite.length > 0 && suite[suite.length - 1][1] >= indent) suite.pop();
  suite.push([name, indent]);
  return suite;
}
