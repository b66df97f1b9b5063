import { PY_DOT, PY_S, PY_WORD } from '../pyText';
import { FAILED, PASSED, SKIPPED, type StatusMap } from '../statuses';

// Matched on the raw line (not stripped): a suite header starts at column 0 with a word character.
const SUITE = new RegExp(`^(${PY_WORD}${PY_DOT}+) \\(${PY_DOT}+\\)$`, 'u');
const TEST = new RegExp(`^${PY_S}*([✔✘↩])${PY_S}*(${PY_DOT}*)$`, 'u');
const STATUS: Record<string, string> = { '✔': PASSED, '✘': FAILED, '↩': SKIPPED };

/**
 * php.py parse_log_phpunit: `phpunit --testdox`, a `Suite Name (Namespace\Class)` header and then
 * `✔ test`, `✘ test`, `↩ test` lines, recorded as `Suite Name > test`. A test before any header
 * is filed under "None" (Python's format of the unset suite); incomplete (∅) and risky (☢) tests
 * record nothing.
 */
export function parsePhpunit(log: string): StatusMap {
  const map: StatusMap = new Map();
  let suite = 'None';
  for (const line of log.split('\n')) {
    const header = SUITE.exec(line);
    if (header) {
      suite = header[1];
      continue;
    }
    const test = TEST.exec(line);
    if (test) map.set(`${suite} > ${test[2]}`, STATUS[test[1]]);
  }
  return map;
}
