import { ansiEscape, PY_DIGIT, PY_ML_START, PY_S, PY_WORD, pyIndent, pyRstrip, pyStrip } from '../../pyText';
import { FAILED, type StatusMap } from '../../statuses';

/** Drops JSON the tests print: lines from one ending in `{`/`[` to a closing `}`/`]` line, and one-line objects/arrays. */
function withoutJsonBlocks(log: string): string {
  const kept: string[] = [];
  let inObject = false;
  let inList = false;
  for (const line of log.split('\n')) {
    const s = pyRstrip(line);
    if (s.endsWith('{')) {
      inObject = true;
      continue;
    }
    if (s.endsWith('[')) {
      inList = true;
      continue;
    }
    if (s === '}' && inObject) {
      inObject = false;
      continue;
    }
    if (s === ']' && inList) {
      inList = false;
      continue;
    }
    if (inObject || inList) continue;
    if ((s.startsWith('{') && s.endsWith('}')) || (s.startsWith('[') && s.endsWith(']'))) continue;
    kept.push(line);
  }
  return kept.join('\n');
}

const XML_BLOCK = new RegExp(`<(${PY_WORD}+)>[\\s\\S]*?<\\/\\1>`, 'u');

/**
 * Drops `<tag>...</tag>` blocks, first match first, again and again; a block that swallowed
 * other opening tags of its name leaves them behind so their own closing tags still pair up.
 */
function withoutXmlBlocks(log: string): string {
  let text = log;
  for (let m = XML_BLOCK.exec(text); m; m = XML_BLOCK.exec(text)) {
    const open = `<${m[1]}>`;
    const opening = Math.max(m[0].split(open).length - 2, 0);
    text = text.slice(0, m.index) + open.repeat(opening) + text.slice(m.index + m[0].length);
  }
  return text;
}

// DOTALL: a failure title may span lines, up to 1000 characters, ending at the first ":".
const FAILURE = new RegExp(`${PY_ML_START}${PY_S}*(${PY_DIGIT}+)\\)([\\s\\S]{0,1000}?):`, 'gu');

/** A real failure title: every line indented deeper than the one before (the first deeper than 0). */
function isNestedTitle(title: string): boolean {
  let last = 0;
  for (const line of title.split('\n')) {
    const indent = pyIndent(line);
    if (indent <= last) return false;
    last = indent;
  }
  return true;
}

/**
 * javascript.py parse_log_p5js (mocha under grunt, fail-only): ANSI codes, printed JSON and XML
 * blocks removed, then each `N) suite\n   test:` whose lines nest deeper and deeper is FAILED,
 * named by its stripped lines joined with ":".
 */
export function parseP5js(log: string): StatusMap {
  const map: StatusMap = new Map();
  const text = withoutXmlBlocks(withoutJsonBlocks(ansiEscape(log)));
  for (const m of text.matchAll(FAILURE)) {
    if (!isNestedTitle(m[2])) continue;
    map.set(m[2].split('\n').map(pyStrip).join(':'), FAILED);
  }
  return map;
}
