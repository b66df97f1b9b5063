import { PY_WORD } from '../../pyText';
import { pyStrip } from '../../pyText';
import { FAILED, PASSED, type StatusMap } from '../../statuses';

const CASE_PREFIX = /\[(smoke|unit)\]/u;
const TMP_FILES = [new RegExp(`/tmp/(${PY_WORD}+)\\.qmd`, 'u'), new RegExp(`/tmp/(${PY_WORD}+)/`, 'u')];

/**
 * javascript.py parse_log_quarto_cli (Deno's test output): stop at the first `ERRORS` or
 * `failures:`; each `[smoke]`/`[unit]` line is a test named by its text before `...`, with
 * temporary paths renumbered /tmp/0, /tmp/1, ... in order of appearance. A green `ok` passes, a
 * red `FAILED` fails, and a line with neither fails too, unless it is a summary or INFO line.
 */
export function parseQuartoCli(log: string): StatusMap {
  const map: StatusMap = new Map();
  const tmpIds = new Map<string, number>();
  for (let line of log.split('\n')) {
    if (line.includes('ERRORS') || line.includes('failures:')) break;
    if (!CASE_PREFIX.test(line)) continue;
    for (const pattern of TMP_FILES) {
      const m = pattern.exec(line);
      if (!m) continue;
      if (!tmpIds.has(m[0])) tmpIds.set(m[0], tmpIds.size);
      const id = tmpIds.get(m[0])!;
      line = line.replace(new RegExp(pattern.source, 'gu'), () => `/tmp/${id}`);
    }
    const name = pyStrip(line.split('...')[0]);
    const rejected =
      line.startsWith('test result:') ||
      (line.includes('passed') && line.includes('failed') && line.includes('steps')) ||
      line.includes('34mINFO');
    if (rejected) continue;
    if (line.includes('32mok')) map.set(name, PASSED);
    else if (line.includes('31mFAILED')) map.set(name, FAILED);
    else if (!map.has(name)) map.set(name, FAILED);
  }
  return map;
}
