// A small highlighter for the actions and observations of agent steps (shell commands, Python,
// diffs). It only splits text into classed tokens; the styles come from media/trajectory.css
// (theme variables), and the text is rendered as text nodes, never as HTML.

export type TokenClass = 'plain' | 'keyword' | 'string' | 'comment' | 'number' | 'added' | 'removed' | 'hunk';
export interface Token {
  cls: TokenClass;
  text: string;
}

/** Past this size a block is shown plain: the observation of a `cat` can be megabytes. */
const MAX_HIGHLIGHT = 40_000;

const KEYWORDS = new Set(
  (
    'def class return if elif else for while in not and or is None True False import from as with try except finally raise pass break continue lambda yield ' +
    'then fi do done case esac function export local echo cd sudo'
  ).split(' '),
);

const TOKEN = /(#[^\n]*)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)/g;

export function highlight(text: string): Token[] {
  if (text.length > MAX_HIGHLIGHT) return [{ cls: 'plain', text }];
  if (looksLikeDiff(text)) return diffTokens(text);
  const out: Token[] = [];
  let last = 0;
  const push = (cls: TokenClass, t: string) => {
    if (!t) return;
    const prev = out[out.length - 1];
    if (prev && prev.cls === cls) prev.text += t;
    else out.push({ cls, text: t });
  };
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    push('plain', text.slice(last, at));
    if (m[1]) push('comment', m[1]);
    else if (m[2]) push('string', m[2]);
    else if (m[3]) push('number', m[3]);
    else push(KEYWORDS.has(m[4]) ? 'keyword' : 'plain', m[4]);
    last = at + m[0].length;
  }
  push('plain', text.slice(last));
  return out;
}

function looksLikeDiff(text: string): boolean {
  return /^(diff --git |--- a\/|@@ -\d)/m.test(text) && /^@@ /m.test(text);
}

function diffTokens(text: string): Token[] {
  return text.split(/(?<=\n)/).map((line) => ({
    cls:
      line.startsWith('+') && !line.startsWith('+++')
        ? 'added'
        : line.startsWith('-') && !line.startsWith('---')
          ? 'removed'
          : line.startsWith('@@')
            ? 'hunk'
            : 'plain',
    text: line,
  }));
}
