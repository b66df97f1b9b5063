/**
 * `sed -i` substitutions (`[addr[,addr]]s/pattern/replacement/flags`), the edit mini-swe-agent's
 * prompt teaches, turned into a per-line JS function so the workspace replay can apply them.
 * Anything else a sed script can do (d, i, a, c, regex addresses, several commands) returns null:
 * the caller then says the file changed in a way it cannot follow.
 */

export interface SedSubstitution {
  range: { start: number; end: number | null } | null;
  apply: (line: string) => string;
  describe: string;
}

export interface SedInPlace {
  files: string[];
  substitutions: SedSubstitution[];
}

/** `words` are the sed command's words after quote removal, starting with `sed`. */
export function parseSedInPlace(words: string[]): SedInPlace | null | 'not-in-place' {
  let inPlace = false;
  let extended = false;
  let unknownFlag = false;
  const scripts: string[] = [];
  const files: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === '--') {
      files.push(...words.slice(i + 1));
      break;
    }
    if (w === '-i' || w.startsWith('-i') || w === '--in-place' || w.startsWith('--in-place=')) {
      inPlace = true;
      if (w === '-i' && words[i + 1] === '') i++;
      continue;
    }
    if (w === '-E' || w === '-r' || w === '--regexp-extended') {
      extended = true;
      continue;
    }
    if (w === '-e' || w === '--expression') {
      scripts.push(words[++i] ?? '');
      continue;
    }
    if (/^-[A-Za-z]+$/.test(w)) {
      // combined flags such as -Ei or -ie: keep what we understand, refuse the rest
      if (w.includes('i')) inPlace = true;
      if (w.includes('E') || w.includes('r')) extended = true;
      if (/[^iEr]/.test(w.slice(1))) unknownFlag = true;
      continue;
    }
    if (w.startsWith('-')) {
      unknownFlag = true;
      continue;
    }
    if (scripts.length === 0) scripts.push(w);
    else files.push(w);
  }
  if (!inPlace) return 'not-in-place';
  if (unknownFlag || files.length === 0 || scripts.length === 0) return null;
  const substitutions: SedSubstitution[] = [];
  for (const script of scripts) {
    for (const part of splitScript(script)) {
      const sub = parseSubstitution(part, extended);
      if (!sub) return null;
      substitutions.push(sub);
    }
  }
  return { files, substitutions };
}

/** Several commands separated by `;` or newlines; a `;` inside s/// delimiters is not a separator. */
function splitScript(script: string): string[] {
  const parts: string[] = [];
  let i = 0;
  let start = 0;
  while (i < script.length) {
    const sAt = script.indexOf('s', i);
    if (sAt < 0) break;
    const delim = script[sAt + 1];
    if (!delim || /[\s\w\\]/.test(delim)) return [script];
    let count = 0;
    let k = sAt + 2;
    for (; k < script.length && count < 2; k++) {
      if (script[k] === '\\') k++;
      else if (script[k] === delim) count++;
    }
    while (k < script.length && /[gpIi0-9]/.test(script[k])) k++;
    parts.push(script.slice(start, k).trim());
    while (k < script.length && /[;\s]/.test(script[k])) k++;
    start = i = k;
  }
  if (start < script.length && script.slice(start).trim()) parts.push(script.slice(start).trim());
  return parts.length ? parts : [script];
}

function parseSubstitution(script: string, extended: boolean): SedSubstitution | null {
  const m = /^(?:(\d+|\$)(?:,(\d+|\$))?)?\s*s(.)/.exec(script);
  if (!m) return null;
  const delim = m[3];
  const fields: string[] = [];
  let k = m[0].length;
  let cur = '';
  while (k < script.length && fields.length < 2) {
    const c = script[k];
    if (c === '\\' && k + 1 < script.length) {
      cur += script[k + 1] === delim ? delim : c + script[k + 1];
      k += 2;
      continue;
    }
    if (c === delim) {
      fields.push(cur);
      cur = '';
      k++;
      continue;
    }
    cur += c;
    k++;
  }
  if (fields.length < 2) return null;
  const flags = script.slice(k).trim();
  if (!/^[gI0-9]*$/.test(flags)) return null;
  const global = flags.includes('g');
  const nth = /\d+/.exec(flags) ? Number(/\d+/.exec(flags)![0]) : null;
  let regex: RegExp;
  try {
    regex = new RegExp(
      extended ? convertEre(fields[0]) : convertBre(fields[0]),
      (global || nth ? 'g' : '') + (flags.includes('I') ? 'i' : ''),
    );
  } catch {
    return null;
  }
  const replacement = convertReplacement(fields[1]);
  const range = m[1] === undefined ? null : addressRange(m[1], m[2]);
  if (range === undefined) return null;
  const apply = (line: string): string => {
    regex.lastIndex = 0;
    if (nth === null) return line.replace(regex, replacement);
    let seen = 0;
    return line.replace(regex, (match: string, ...rest: unknown[]) => {
      seen++;
      if (seen < nth || (seen > nth && !global)) return match;
      const groups = rest.slice(0, -2) as (string | undefined)[];
      return replacement.replace(/\$(\$|&|\d)/g, (_t, g: string) =>
        g === '$' ? '$' : g === '&' ? match : (groups[Number(g) - 1] ?? ''),
      );
    });
  };
  return { range, apply, describe: script };
}

function addressRange(a: string, b: string | undefined): { start: number; end: number | null } | undefined {
  if (a === '$') return b === undefined ? { start: -1, end: null } : undefined;
  const start = Number(a);
  if (b === undefined) return { start, end: start };
  return { start, end: b === '$' ? null : Number(b) };
}

function convertBracket(body: string): string {
  return body
    .replace(/\\/g, '\\\\')
    .replace(/\[:space:\]/g, '\\s')
    .replace(/\[:digit:\]/g, '0-9')
    .replace(/\[:alpha:\]/g, 'A-Za-z')
    .replace(/\[:alnum:\]/g, 'A-Za-z0-9')
    .replace(/\[:upper:\]/g, 'A-Z')
    .replace(/\[:lower:\]/g, 'a-z')
    .replace(/\[:blank:\]/g, ' \\t')
    .replace(/\[:punct:\]/g, '!-\\/:-@\\[-`{-~');
}

/** Reads a bracket expression starting at `[`; returns [js, next index]. */
function bracketAt(re: string, i: number): [string, number] {
  let k = i + 1;
  if (re[k] === '^') k++;
  if (re[k] === ']') k++;
  while (k < re.length && re[k] !== ']') {
    if (re[k] === '[' && re[k + 1] === ':') {
      const close = re.indexOf(':]', k + 2);
      k = close < 0 ? k + 1 : close + 2;
    } else k++;
  }
  const inner = re.slice(i + 1, k);
  const negate = inner.startsWith('^');
  return [`[${negate ? '^' : ''}${convertBracket(negate ? inner.slice(1) : inner)}]`, k + 1];
}

/** POSIX basic regular expression (GNU flavour) to JS. */
function convertBre(re: string): string {
  let out = '';
  for (let i = 0; i < re.length;) {
    const c = re[i];
    if (c === '\\' && i + 1 < re.length) {
      const d = re[i + 1];
      if ('(){}+?|'.includes(d)) out += d;
      else if (d === 'n') out += '\\n';
      else if (d === 't') out += '\\t';
      else if (/[0-9]/.test(d)) out += '\\' + d;
      else if (/[A-Za-z]/.test(d) && 'wWsSbB'.includes(d)) out += '\\' + d;
      else out += '\\' + d;
      i += 2;
      continue;
    }
    if (c === '[') {
      const [js, next] = bracketAt(re, i);
      out += js;
      i = next;
      continue;
    }
    if ('(){}+?|/'.includes(c)) out += '\\' + c;
    else if (c === '*' && (out === '' || out.endsWith('(') || out.endsWith('^'))) out += '\\*';
    else out += c;
    i++;
  }
  return out;
}

/** POSIX extended regular expression to JS (close already; brackets and escapes differ). */
function convertEre(re: string): string {
  let out = '';
  for (let i = 0; i < re.length;) {
    const c = re[i];
    if (c === '\\' && i + 1 < re.length) {
      out += re[i + 1] === 'n' ? '\\n' : re[i + 1] === 't' ? '\\t' : '\\' + re[i + 1];
      i += 2;
      continue;
    }
    if (c === '[') {
      const [js, next] = bracketAt(re, i);
      out += js;
      i = next;
      continue;
    }
    out += c === '/' ? '\\/' : c;
    i++;
  }
  return out;
}

/** sed replacement (`&`, `\1`, `\n`) to a JS replacement string (`$&`, `$1`, newline). */
function convertReplacement(rep: string): string {
  let out = '';
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i];
    if (c === '\\' && i + 1 < rep.length) {
      const d = rep[++i];
      if (/[1-9]/.test(d)) out += '$' + d;
      else if (d === 'n') out += '\n';
      else if (d === 't') out += '\t';
      else if (d === '&') out += '&';
      else out += d === '$' ? '$$' : d;
      continue;
    }
    if (c === '&') out += '$&';
    else if (c === '$') out += '$$';
    else out += c;
  }
  return out;
}
