import { PY_DOT, pyStrip } from '../pyText';
import { FAILED, PASSED, SKIPPED, type StatusMap } from '../statuses';

// `--- PASS: name (0.00s)`; the name runs to the last " (" that a ")" at the end closes.
const RESULT = new RegExp(`^--- (PASS|FAIL|SKIP): (${PY_DOT}+) \\((${PY_DOT}+)\\)$`, 'u');
const STATUS: Record<string, string> = { PASS: PASSED, FAIL: FAILED, SKIP: SKIPPED };

/**
 * go.py parse_log_gotest: `go test -v` result lines, subtests included (`TestX/case`, whose
 * spaces Go has already turned into underscores). Indented subtest lines count too: the line is
 * stripped first. `=== RUN`, package `ok`/`FAIL` lines and build errors record nothing.
 */
export function parseGoTest(log: string): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const m = RESULT.exec(pyStrip(line));
    if (m) map.set(m[2], STATUS[m[1]]);
  }
  return map;
}
