/**
 * A Python list literal of strings, `['a', "b\\n"]`, the form SWE-bench Pro stores its test lists in
 * (its harness reads them with `eval`). Returns null for anything else (other literals, raw or
 * byte strings, expressions), so callers report the field as invalid instead of guessing.
 */
export function parsePythonStringList(text: string): string[] | null {
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  skipSpace();
  if (text[i] !== '[') return null;
  i++;
  const out: string[] = [];
  for (;;) {
    skipSpace();
    if (text[i] === ']') {
      i++;
      break;
    }
    const s = readString();
    if (s === null) return null;
    out.push(s);
    skipSpace();
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === ']') {
      i++;
      break;
    }
    return null;
  }
  skipSpace();
  return i === text.length ? out : null;

  function readString(): string | null {
    const quote = text[i];
    if (quote !== "'" && quote !== '"') return null;
    const triple = text.startsWith(quote.repeat(3), i);
    const end = triple ? quote.repeat(3) : quote;
    i += end.length;
    let s = '';
    while (i < text.length) {
      if (text.startsWith(end, i)) {
        i += end.length;
        return s;
      }
      const ch = text[i];
      if (ch === '\n' && !triple) return null;
      if (ch !== '\\') {
        s += ch;
        i++;
        continue;
      }
      const next = text[i + 1];
      const simple: Record<string, string> = {
        '\\': '\\',
        "'": "'",
        '"': '"',
        n: '\n',
        t: '\t',
        r: '\r',
        a: '\x07',
        b: '\b',
        f: '\f',
        v: '\v',
        '0': '\0',
        '\n': '',
      };
      if (next !== undefined && Object.hasOwn(simple, next) && !(next === '0' && /[0-7]/.test(text[i + 2] ?? ''))) {
        s += simple[next];
        i += 2;
        continue;
      }
      const hex = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
      if (hex) {
        const digits = text.slice(i + 2, i + 2 + hex);
        if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) return null;
        const cp = parseInt(digits, 16);
        if (cp > 0x10ffff) return null;
        s += String.fromCodePoint(cp);
        i += 2 + hex;
        continue;
      }
      // Any other backslash stays as written, as in Python.
      s += ch;
      i++;
    }
    return null;
  }
}
