import { ParserCrash } from '../../parserCrash';
import { afterFirst, beforeLast, PY_DOT, PY_S } from '../../pyText';
import { FAILED, PASSED, type StatusMap } from '../../statuses';

/** The test command prism's spec names; the harness reads one JSON report after each time it appears. */
export const PRISM_TEST_CMD = './node_modules/.bin/mocha tests/run.js --reporter json';

/**
 * javascript.py parse_log_prismjs (mocha's JSON reporter): after each appearance of the test
 * command (its `set -x` trace), the text from the first `{` to the last `}` is one JSON report;
 * its `failures` then its `passes` are recorded by `fullTitle`. A report that is not JSON, or
 * lacks those keys, makes the harness raise.
 */
export function parsePrismjs(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const chunk of log.split(PRISM_TEST_CMD).slice(1)) {
    const text = '{' + beforeLast(afterFirst(chunk, '{'), '}') + '}';
    const report = pyJsonLoads(text, 'prismjs');
    recordTitles(map, report, 'failures', FAILED);
    recordTitles(map, report, 'passes', PASSED);
  }
  return map;
}

function recordTitles(map: StatusMap, report: unknown, key: string, status: string): void {
  const crash = (what: string) => new ParserCrash('prismjs', key, what);
  const list = (report as Record<string, unknown>)[key];
  if (!Object.hasOwn(report as object, key)) throw crash(`KeyError: '${key}'`);
  if (!Array.isArray(list)) {
    // Python iterates a dict's keys or a string's characters, then indexes them with a string.
    if (typeof list === 'string' && list === '') return;
    if (list !== null && typeof list === 'object' && Object.keys(list).length === 0) return;
    throw crash(`TypeError: cannot read fullTitle from ${key}`);
  }
  for (const test of list) {
    if (test === null || typeof test !== 'object' || Array.isArray(test))
      throw crash('TypeError: a test is not an object');
    if (!Object.hasOwn(test, 'fullTitle')) throw crash("KeyError: 'fullTitle'");
    const title = (test as Record<string, unknown>).fullTitle;
    if (title !== null && typeof title === 'object') throw crash('TypeError: unhashable type');
    map.set(pyStr(title), status);
  }
}

/** Python's str() of a JSON scalar, for the rare report whose title is not a string. */
function pyStr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
}

/**
 * Python's json.loads: JSON plus NaN, Infinity and -Infinity. Throws ParserCrash (the harness's
 * JSONDecodeError) on anything else.
 */
export function pyJsonLoads(text: string, parser: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(nonFiniteToNull(text));
    } catch (e) {
      throw new ParserCrash(parser, text, `JSONDecodeError: ${(e as Error).message}`);
    }
  }
}

// Bare NaN / Infinity / -Infinity outside strings; their values never matter to the parsers.
function nonFiniteToNull(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    const rest = text.slice(i, i + 9);
    const token = rest.startsWith('NaN')
      ? 'NaN'
      : rest.startsWith('Infinity')
        ? 'Infinity'
        : rest.startsWith('-Infinity')
          ? '-Infinity'
          : null;
    if (token) {
      out += 'null';
      i += token.length - 1;
    } else out += ch;
  }
  return out;
}

const FULL_TITLE = new RegExp(`"fullTitle":${PY_S}"(${PY_DOT}*)",\\n`, 'gu');

function titlesIn(text: string): string[] {
  return [...text.matchAll(FULL_TITLE)].map((m) => m[1]);
}

/**
 * javascript.py parse_log_cypress: the log split at each `../..`; in every piece but the last,
 * the `"fullTitle": "..."` lines of its `passes` then its `failures` section, read by regex (not
 * JSON, so escapes stay as written).
 */
export function parseCypress(log: string): StatusMap {
  const map: StatusMap = new Map();
  const pieces = log.split('../..');
  for (const piece of pieces.slice(0, -1)) {
    for (const t of titlesIn(beforeLast(lastPiece(piece, '  "passes": ['), '  }'))) map.set(t, PASSED);
    for (const t of titlesIn(beforeLast(lastPiece(piece, '  "failures": ['), '  ],'))) map.set(t, FAILED);
  }
  return map;
}

/** Python `s.split(sep)[-1]`. */
export function lastPiece(s: string, sep: string): string {
  const i = s.lastIndexOf(sep);
  return i < 0 ? s : s.slice(i + sep.length);
}

const LIGHTHOUSE_JSON_CMD = './node_modules/.bin/mocha --reporter json';

/** javascript.py parse_log_lighthouse's own branch (versions below 3): mocha JSON reports, read by regex. */
export function parseLighthouseJson(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const chunk of log.split(LIGHTHOUSE_JSON_CMD).slice(1)) {
    for (const t of titlesIn(beforeLast(lastPiece(chunk, '"passes": ['), ']'))) map.set(t, PASSED);
    for (const t of titlesIn(beforeLast(lastPiece(chunk, '"failures": ['), '],'))) map.set(t, FAILED);
  }
  return map;
}
