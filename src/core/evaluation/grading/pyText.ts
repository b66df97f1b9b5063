/**
 * Python's string semantics where they differ from JavaScript's, so the parsers split, strip and
 * match exactly as the harness's Python does (its `str.split()`, `str.strip()`, `re` classes).
 */

/** Characters Python's str.isspace() accepts (and so split()/strip() and re's \s use). JS's \s differs. */
export const PY_WHITESPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python re's \d on str: any Unicode decimal digit. */
export const PY_DIGIT = '\\p{Nd}';
/** Python re's \w on str: letters, numbers and underscore. */
export const PY_WORD = '[\\p{L}\\p{N}_]';
/** Python re's `.`: anything but a newline (JS's `.` also stops at \r, U+2028 and U+2029). */
export const PY_DOT = '[^\\n]';
/** Python re's `^` and `$` under re.MULTILINE (JS's m flag also breaks lines at \r). */
export const PY_ML_START = '(?:^|(?<=\\n))';
export const PY_ML_END = '(?=\\n|$)';

const WS_RUN = new RegExp(`[${PY_WHITESPACE}]+`, 'u');
const LEADING_WS = new RegExp(`^[${PY_WHITESPACE}]+`, 'u');
const TRAILING_WS = new RegExp(`[${PY_WHITESPACE}]+$`, 'u');

/** Python `s.split()`: split on runs of whitespace, no empty strings. */
export function pySplit(s: string): string[] {
  const t = pyStrip(s);
  return t === '' ? [] : t.split(WS_RUN);
}

const WS_CHAR = new RegExp(`[${PY_WHITESPACE}]`, 'u');

// Most log lines have no surrounding whitespace: skip the regex work for them.
export function pyStrip(s: string): string {
  if (s === '' || (!WS_CHAR.test(s[0]) && !WS_CHAR.test(s[s.length - 1]))) return s;
  return pyLstrip(s).replace(TRAILING_WS, '');
}

export function pyLstrip(s: string): string {
  if (s === '' || !WS_CHAR.test(s[0])) return s;
  return s.replace(LEADING_WS, '');
}

/** Python `s.split(sep)[0]`, without building the other pieces. */
export function beforeFirst(s: string, sep: string): string {
  const i = s.indexOf(sep);
  return i < 0 ? s : s.slice(0, i);
}

/** Python `s.split(sep, 1)[-1]`. */
export function afterFirst(s: string, sep: string): string {
  const i = s.indexOf(sep);
  return i < 0 ? s : s.slice(i + sep.length);
}

/** Python `s.rsplit(sep, 1)[0]`. */
export function beforeLast(s: string, sep: string): string {
  const i = s.lastIndexOf(sep);
  return i < 0 ? s : s.slice(0, i);
}

const ND_RUN = /\p{Nd}/u;

/**
 * Python `int()` of an optionally signed run of Unicode decimal digits. Unicode encodes every
 * decimal digit set as a run of ten from zero, so a digit's value is its distance from the run's start.
 */
export function pyInt(text: string): number {
  let value = 0;
  let sign = 1;
  for (const ch of text) {
    if (ch === '-') {
      sign = -1;
      continue;
    }
    let cp = ch.codePointAt(0)!;
    let start = cp;
    while (start > 0 && ND_RUN.test(String.fromCodePoint(start - 1))) start--;
    cp = (cp - start) % 10;
    value = value * 10 + cp;
  }
  return sign * value;
}

/** Python's whitespace minus \n and \r: what the harness's `[^\S\r\n]` matches. */
export const PY_WHITESPACE_NO_NEWLINE =
  '\\t\\v\\f\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** Building blocks for regexes that match as the harness's Python `re` patterns do (compile with the u flag). */
export const PY_S = `[${PY_WHITESPACE}]`;
export const PY_NS = `[^${PY_WHITESPACE}]`;

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  if (s === '' || !WS_CHAR.test(s[s.length - 1])) return s;
  return s.replace(TRAILING_WS, '');
}

/** Python `len(line) - len(line.lstrip())`: the count of leading whitespace characters. */
export function pyIndent(line: string): number {
  return line.length - pyLstrip(line).length;
}

/** Python `s.split(sep, 1)[1]`; undefined where Python raises IndexError (no separator). */
export function afterFirstOrUndefined(s: string, sep: string): string | undefined {
  const i = s.indexOf(sep);
  return i < 0 ? undefined : s.slice(i + sep.length);
}

// swebench.utils.ansi_escape: ESC followed by one Fe byte or a CSI sequence.
const ANSI = /\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])/g;

/** The harness's ansi_escape. */
export function ansiEscape(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

const FLOAT_BODY =
  /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.(?:[eE][+-]?\d(?:_?\d)*)?)$/;
const FLOAT_SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/**
 * Python `float(text)` for the strings a dataset's version field holds; NaN where Python raises
 * ValueError (so callers must tell that apart from a real "nan" with pyFloatOrNull).
 */
export function pyFloatOrNull(text: string): number | null {
  const t = toAsciiDigits(pyStrip(text));
  if (FLOAT_SPECIAL.test(t)) {
    const lower = t.toLowerCase();
    if (lower.endsWith('nan')) return NaN;
    return lower.startsWith('-') ? -Infinity : Infinity;
  }
  if (!FLOAT_BODY.test(t)) return null;
  return Number(t.replace(/_/g, ''));
}

// float() accepts any Unicode decimal digit.
function toAsciiDigits(s: string): string {
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  return s.replace(/\p{Nd}/gu, (d) => String(pyInt(d)));
}
