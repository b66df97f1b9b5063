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
