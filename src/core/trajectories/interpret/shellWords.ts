/**
 * Just enough of POSIX shell syntax to read the commands agents run: words with quotes removed,
 * redirections, heredoc bodies and the operators between simple commands. It never runs or
 * expands anything; `$(...)` and backquotes stay inside their word.
 */

export type Connector = '|' | '&&' | '||' | ';' | '&' | null;

export interface Redirect {
  op: '>' | '>>' | '<' | '<<' | '<<<' | '2>' | '&>';
  target: string;
}

export interface SimpleCommand {
  /** Words with quotes removed (assignments like A=b at the start are dropped). */
  words: string[];
  redirects: Redirect[];
  /** Body of a `<<EOF` heredoc, without the final newline before the delimiter. */
  heredoc: string | null;
  /** How this command connects to the next one. */
  next: Connector;
}

const OPERATOR_CHARS = new Set(['|', '&', ';', '\n']);

export function parseShell(text: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  let redirects: Redirect[] = [];
  let pendingHeredocs: { delimiter: string; stripTabs: boolean; command: SimpleCommand | null }[] = [];
  let current: SimpleCommand | null = null;
  let word = '';
  let inWord = false;
  let pendingRedirect: Redirect['op'] | null = null;
  let i = 0;
  const n = text.length;

  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect) {
      if (pendingRedirect === '<<') {
        const stripTabs = word.startsWith('-');
        pendingHeredocs.push({ delimiter: stripTabs ? word.slice(1) : word, stripTabs, command: null });
      }
      redirects.push({ op: pendingRedirect, target: word });
      pendingRedirect = null;
    } else if (words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      // leading VAR=value assignment: not the command name
    } else words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (next: Connector) => {
    endWord();
    if (words.length || redirects.length) {
      current = { words, redirects, heredoc: null, next };
      commands.push(current);
      for (const h of pendingHeredocs) if (!h.command) h.command = current;
    } else if (commands.length && next) commands[commands.length - 1].next = next;
    words = [];
    redirects = [];
  };

  while (i < n) {
    const c = text[i];
    if (c === '\\' && i + 1 < n) {
      if (text[i + 1] === '\n') {
        i += 2;
        continue;
      }
      word += text[i + 1];
      inWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close < 0 ? n : close;
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < n && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < n && '"\\$`\n'.includes(text[i + 1])) {
          if (text[i + 1] !== '\n') word += text[i + 1];
          i += 2;
          continue;
        }
        if (text[i] === '$' && text[i + 1] === '(') {
          const end = matchParen(text, i + 1);
          word += text.slice(i, end + 1);
          i = end + 1;
          continue;
        }
        word += text[i];
        i++;
      }
      inWord = true;
      i++;
      continue;
    }
    if (c === '$' && text[i + 1] === '(') {
      const end = matchParen(text, i + 1);
      word += text.slice(i, end + 1);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '`') {
      const close = text.indexOf('`', i + 1);
      const end = close < 0 ? n : close;
      word += text.slice(i, end + 1);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '#' && !inWord) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
      continue;
    }
    if (c === '>' || c === '<' || (c === '&' && text[i + 1] === '>') || (c === '2' && !inWord && text[i + 1] === '>')) {
      endWord();
      let op: Redirect['op'];
      if (text.startsWith('<<<', i)) op = '<<<';
      else if (text.startsWith('<<', i)) op = '<<';
      else if (text.startsWith('>>', i)) op = '>>';
      else if (text.startsWith('&>', i)) op = '&>';
      else if (text.startsWith('2>', i)) op = '2>';
      else op = c as '>' | '<';
      i += op.length;
      if (text[i] === '&') {
        // 2>&1, >&2: a descriptor, not a file
        i++;
        while (i < n && /[0-9-]/.test(text[i])) i++;
        continue;
      }
      pendingRedirect = op;
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      let next: Connector;
      if (text.startsWith('&&', i)) next = '&&';
      else if (text.startsWith('||', i)) next = '||';
      else if (c === '|') next = '|';
      else if (c === '&') next = '&';
      else next = ';';
      i += next === '&&' || next === '||' ? 2 : 1;
      endCommand(next);
      if (c === '\n' && pendingHeredocs.some((h) => h.command)) i = readHeredocs(text, i, pendingHeredocs);
      pendingHeredocs = pendingHeredocs.filter((h) => !h.command);
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  endCommand(null);
  if (pendingHeredocs.length) readHeredocs(text, n, pendingHeredocs);
  if (commands.length) commands[commands.length - 1].next = null;
  return commands;
}

/** Reads heredoc bodies starting at `from` (the line after the command); returns where it stopped. */
function readHeredocs(
  text: string,
  from: number,
  pending: { delimiter: string; stripTabs: boolean; command: SimpleCommand | null }[],
): number {
  let i = from;
  for (const h of pending) {
    if (!h.command) continue;
    const lines: string[] = [];
    let closed = false;
    while (i < text.length) {
      const nl = text.indexOf('\n', i);
      const end = nl < 0 ? text.length : nl;
      let line = text.slice(i, end);
      i = nl < 0 ? text.length : nl + 1;
      if (h.stripTabs) line = line.replace(/^\t+/, '');
      if (line.replace(/\r$/, '') === h.delimiter) {
        closed = true;
        break;
      }
      lines.push(line);
    }
    h.command.heredoc = lines.join('\n') + (closed || lines.length ? '\n' : '');
  }
  return i;
}

function matchParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return text.length - 1;
      i = close;
    }
  }
  return text.length - 1;
}

/** Splits SWE-agent style command arguments (`open "src/x.py" 120`) into words. */
export function splitWords(line: string): string[] {
  return parseShell(line.replace(/\n/g, ' ')).flatMap((c) => [...c.words, ...c.redirects.map((r) => r.op + r.target)]);
}
