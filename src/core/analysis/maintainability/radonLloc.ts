// Logical lines of code as radon counts them (radon 6.0.1, radon/raw.py `analyze` and
// `_logical`; docs/reference/maintainability.md). The text is read one stripped physical line at a
// time, joined while a bracket, a string or a backslash continues it (radon's `_get_all_tokens`).
// Each such line is split at `;`; a part counts 0 when it holds only comments, else 1, and 2 when
// it holds a `:` that is not its last token (`if x: return 1`, but also radon's quirks: a
// dict, slice, lambda or annotation colon, `def f(x: int):`). A part before a `;` has no end
// marker, so there the colon must be the second-to-last token to count 1, as in radon.
// f-strings are one token each, as Python 3.11's tokenizer reads them.

type Token = 'colon' | 'semi' | 'other';

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '**',
  '//',
  '>>',
  '<<',
  '<=',
  '>=',
  '==',
  '!=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
];
const STRING_START = /^(?:[rRbBuUfF]{1,2})?('''|"""|'|")/;

interface Scan {
  readonly lines: Token[][];
}

/** The logical lines of `text`, each as its tokens (comments dropped). */
function scan(text: string): Scan {
  const src = text
    .split('\n')
    .map((l) => l.trim())
    .join('\n');
  const lines: Token[][] = [];
  let current: Token[] = [];
  let depth = 0;
  let i = 0;
  const end = () => {
    lines.push(current);
    current = [];
  };
  while (i < src.length) {
    const ch = src[i];
    if (ch === '\n') {
      if (depth === 0) end();
      i++;
    } else if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\f') i++;
    else if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (ch === '\\' && src[i + 1] === '\n') i += 2;
    else {
      const str = STRING_START.exec(src.slice(i, i + 5));
      if (str && (str[0].length === str[1].length || /^[A-Za-z]/.test(ch))) {
        const quote = str[1];
        let j = i + str[0].length;
        while (j < src.length && !src.startsWith(quote, j)) {
          if (src[j] === '\\') j++;
          else if (src[j] === '\n' && quote.length === 1) break;
          j++;
        }
        current.push('other');
        i = j + quote.length;
      } else if (/[A-Za-z0-9_\u0080-\uffff]/.test(ch)) {
        let j = i + 1;
        while (j < src.length && /[A-Za-z0-9_.\u0080-\uffff]/.test(src[j]) && !(src[j] === '.' && !/[0-9]/.test(ch)))
          j++;
        current.push('other');
        i = j;
      } else {
        const op = OPERATORS.find((o) => src.startsWith(o, i)) ?? ch;
        if ('([{'.includes(op)) depth++;
        else if (')]}'.includes(op)) depth = Math.max(0, depth - 1);
        current.push(op === ':' ? 'colon' : op === ';' ? 'semi' : 'other');
        i += op.length;
      }
    }
  }
  end();
  return { lines };
}

/** radon's `_logical` for one logical line. */
function logical(tokens: readonly Token[]): number {
  const parts: Token[][] = [[]];
  for (const t of tokens) {
    if (t === 'semi') parts.push([]);
    else parts[parts.length - 1].push(t);
  }
  return parts.reduce((sum, part, index) => {
    // The last part carries radon's ENDMARKER token.
    const processed = index === parts.length - 1 ? [...part, 'end'] : part;
    const colon = processed.lastIndexOf('colon');
    if (colon >= 0) return sum + 2 - (colon === processed.length - 2 ? 1 : 0);
    return sum + (part.length > 0 ? 1 : 0);
  }, 0);
}

/** radon's LLOC of a piece of Python source (a function's text, decorators included). */
export function radonLloc(text: string): number {
  return scan(text).lines.reduce((sum, line) => sum + logical(line), 0);
}
