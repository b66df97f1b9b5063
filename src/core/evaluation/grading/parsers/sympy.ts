import type { GradingProfile } from '../../../../protocol/grading';
import { pySplit, pyStrip, PY_DOT } from '../pyText';
import { ERROR, FAILED, PASSED, type StatusMap } from '../statuses';

// Python's `(_*) (.*)\.py:(.*) (_*)` over the whole log: sympy's failure banners
// `____ sympy/x/tests/test_y.py:test_z ____` (and anything else of that shape).
const FAILURE_BANNER = new RegExp(`(_*) (${PY_DOT}*)\\.py:(${PY_DOT}*) (_*)`, 'gu');

/**
 * sympy's `bin/test --verbose`: `test_name ok|F|E` lines, plus every failure banner marks
 * `path.py:test_name` FAILED. The same in both versions.
 */
export function parseSympy(log: string, _profile: GradingProfile): StatusMap {
  const map: StatusMap = new Map();
  for (const m of log.matchAll(FAILURE_BANNER)) map.set(`${m[2]}.py:${m[3]}`, FAILED);
  for (const raw of log.split('\n')) {
    const line = pyStrip(raw);
    if (!line.startsWith('test_')) continue;
    const name = pySplit(line)[0];
    if (line.endsWith(' E')) map.set(name, ERROR);
    if (line.endsWith(' F')) map.set(name, FAILED);
    if (line.endsWith(' ok')) map.set(name, PASSED);
  }
  return map;
}
