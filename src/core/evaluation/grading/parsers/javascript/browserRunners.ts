import { ParserCrash } from '../../parserCrash';
import {
  ansiEscape,
  PY_DIGIT,
  PY_DOT,
  PY_ML_END,
  PY_ML_START,
  PY_NS,
  PY_S,
  PY_WHITESPACE_NO_NEWLINE,
  pyStrip,
} from '../../pyText';
import { FAILED, PASSED, type StatusMap } from '../../statuses';

const D = PY_DIGIT;
const DOT = PY_DOT;
const S = PY_S;
const WS_RUN = new RegExp(`${S}+`, 'gu');
const fold = (s: string) => pyStrip(s.replace(WS_RUN, ' '));

// `[^\S\r\n]`: whitespace that does not end the line, so one match stays on one line.
const SAME_LINE_WS = `[${PY_WHITESPACE_NO_NEWLINE}]`;
const CHART_JS = new RegExp(
  `Chrome${S}[${D}.]+${SAME_LINE_WS}\\(${DOT}+?\\)${SAME_LINE_WS}(${DOT}*)FAILED${PY_ML_END}`,
  'gu',
);

/** javascript.py parse_log_chart_js (karma, fail-only): `Chrome 1.2 (Linux) name FAILED`, ANSI codes removed first. */
export function parseChartJs(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const m of ansiEscape(log).matchAll(CHART_JS)) map.set(m[1], FAILED);
  return map;
}

const BPMN_JS: [RegExp, number][] = [
  [`2KPhantomJS${S}[${D}.]+${S}\\(Linux${S}[${D}.]+\\)${S}(${DOT}*)FAILED\\n`, 1],
  [`2KPhantomJS${S}[${D}.]+${S}\\(Linux${S}x86_64\\)${S}(${DOT}*)FAILED\\n`, 1],
  [`Chrome${S}Headless${S}(${DOT}*)${S}\\(Linux${S}x86_64\\)${S}(${DOT}*)FAILED\\n`, 2],
  [`HeadlessChrome${S}[${D}.]+${S}\\(Linux${S}[${D}.]+\\)${S}(${DOT}*)FAILED\\n`, 1],
].map(([p, g]) => [new RegExp(p as string, 'gu'), g as number]);

/** javascript.py parse_log_bpmn_js (karma, fail-only): PhantomJS and Chrome Headless `... name FAILED` lines. */
export function parseBpmnJs(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const [pattern, group] of BPMN_JS) {
    for (const m of log.matchAll(pattern)) map.set(m[group], FAILED);
  }
  return map;
}

const OPENLAYERS = [
  `Chrome${S}Headless${S}[${D}.]+${S}\\(Linux${S}${PY_NS}+\\)${S}(${DOT}*)${S}FAILED\\n`,
  `Chrome${S}[${D}.]+${S}\\(Linux${S}${PY_NS}+\\)${S}(${DOT}*)FAILED\\n`,
  `${PY_ML_START}${S}{2}${D}+\\)([\\s\\S]*?)Error:`,
  `${PY_ML_START}case${S}(${DOT}*):${S}mismatch`,
].map((p) => new RegExp(p, 'gu'));

/**
 * javascript.py parse_log_openlayers (fail-only): karma's Chrome FAILED lines, mocha's numbered
 * failures up to `Error:`, and the rendering suite's `case name: mismatch`, whitespace folded.
 */
export function parseOpenlayers(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const pattern of OPENLAYERS) {
    for (const m of log.matchAll(pattern)) map.set(fold(m[1]), FAILED);
  }
  return map;
}

const KARMA_LINE = new RegExp(`^(${S}*)?([✔✖])?${S}(${DOT}*)$`, 'u');

/**
 * javascript.py parse_log_karma (preact, karma-mocha-reporter): from `Starting browser` up to
 * `SUMMARY:`, `✔ title` / `✖ title` named `suite > ... > title`. The suite stack grows by one on
 * each deeper unmarked line and shrinks by one (skipping that line) on each shallower one; a
 * shrink past the bottom is the harness's IndexError.
 */
export function parseKarma(log: string): StatusMap {
  const map: StatusMap = new Map();
  let currentIndent = -1;
  const suite: string[] = [];
  let started = false;
  for (const line of log.split('\n')) {
    if (line.startsWith('SUMMARY:')) return map;
    if (line.includes('Starting browser')) {
      started = true;
      continue;
    }
    if (!started) continue;
    const m = KARMA_LINE.exec(line);
    if (!m) continue;
    const indent = m[1] ?? '';
    const status = m[2];
    const name = m[3];
    if (indent && !status) {
      if (indent.length > currentIndent) {
        currentIndent = indent.length;
        suite.push(name);
      } else if (indent.length < currentIndent) {
        currentIndent = indent.length;
        if (suite.length === 0) throw new ParserCrash('karma', line, 'IndexError: pop from empty list');
        suite.pop();
        continue;
      }
    }
    if (status === '✔' || status === '✖') map.set([...suite, name].join(' > '), status === '✔' ? PASSED : FAILED);
  }
  return map;
}
