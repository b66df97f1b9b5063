import type { GradingProfile } from '../../../../protocol/grading';
import { ParserCrash } from '../parserCrash';
import { PY_DOT, PY_S, PY_WORD, pyStrip } from '../pyText';
import { FAILED, PASSED, SKIPPED, type StatusMap } from '../statuses';
import type { ParserContext } from './types';

const DOT = PY_DOT;
// `name. ... = ... <outcome> ...`: the name runs to the last ". " that the rest still matches.
const MINITEST = new RegExp(`^(${DOT}+)\\. ${DOT}*=${DOT}*(\\.|F|E)${DOT}*$`, 'u');

/**
 * ruby.py parse_log_minitest (jekyll's shoulda names): a verbose line `Class#test_: name. = 0.01 s = .`
 * counts only if the name holds ". " (plain `test_x = 0.00 s = .` lines do not match).
 * `.` is PASSED, F and E are FAILED; a skip (S) records nothing.
 */
export function parseMinitest(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = MINITEST.exec(pyStrip(line));
    if (!m) continue;
    map.set(m[1], m[2] === '.' ? PASSED : FAILED);
  }
  return map;
}

const CUCUMBER = new RegExp(`^(${DOT}*) \\.+(\\.|F)`, 'u');

/** ruby.py parse_log_cucumber: `--format progress` lines, `name ....F`; the first outcome after the dots counts. */
export function parseCucumber(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = CUCUMBER.exec(pyStrip(line));
    if (m) map.set(m[1], m[2] === '.' ? PASSED : FAILED);
  }
  return map;
}

// Python's \b after E/F/O (word characters): the next character is not a word character.
const NOT_WORD = `(?!${PY_WORD})`;
const RUBY_UNIT = new RegExp(`^${PY_S}*(?:test: )?(${DOT}+):${PY_S}+(\\.|E${NOT_WORD}|F${NOT_WORD}|O${NOT_WORD})`, 'u');
const RUBY_UNIT_STATUS: Record<string, string> = { '.': PASSED, E: FAILED, F: FAILED, O: SKIPPED };

/**
 * ruby.py parse_log_ruby_unit (fluentd, faker: test-unit `-v`): `test_name(Class): .`; E and F
 * are FAILED, O (omitted) SKIPPED. The name runs to the last ": " that is followed by an outcome.
 */
export function parseRubyUnit(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = RUBY_UNIT.exec(pyStrip(line));
    if (m) map.set(m[1], RUBY_UNIT_STATUS[m[2]]);
  }
  return map;
}

// Not anchored at the end: `desc - id - passed` and `desc - passedly` both match.
const RSPEC = new RegExp(`^(${DOT}+) - (passed|failed)`, 'u');

/**
 * ruby.py parse_log_rspec_transformed_json (fastlane, fpm, rubocop): `rspec --format json` turned
 * by jq into `description[ - id] - passed|failed` lines. Pending examples record nothing.
 */
export function parseRspecTransformedJson(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = RSPEC.exec(pyStrip(line));
    if (m) map.set(m[1], m[2] === 'passed' ? PASSED : FAILED);
  }
  return map;
}

/**
 * ruby.py parse_log_jekyll: the runner depends on the instance (the second "-"-separated field of
 * its id): minitest for 9141, 8047 and 8167, cucumber for 8761 and 8771. Any other instance makes
 * the harness raise ValueError (and an id without "-" an IndexError).
 */
export function parseJekyll(log: string, _profile: GradingProfile, ctx: ParserContext): StatusMap {
  const id = ctx.instanceId;
  if (id === undefined)
    throw new ParserCrash('jekyll', '(no instance id)', 'AttributeError: the instance id is unknown');
  const fields = id.split('-');
  if (fields.length < 2) throw new ParserCrash('jekyll', id, 'IndexError');
  const pr = fields[1];
  if (['9141', '8047', '8167'].includes(pr)) return parseMinitest(log);
  if (['8761', '8771'].includes(pr)) return parseCucumber(log);
  throw new ParserCrash('jekyll', id, `ValueError: Unknown instance id: ${id}`);
}
