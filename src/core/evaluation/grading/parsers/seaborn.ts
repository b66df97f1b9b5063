import type { GradingProfile } from '../../../../protocol/grading';
import { ParserCrash } from '../parserCrash';
import { pySplit } from '../pyText';
import { FAILED, PASSED, type StatusMap } from '../statuses';

/**
 * seaborn's parser records only PASSED and FAILED: `FAILED id ...`, `id PASSED ...` (verbose) and
 * `PASSED id`. Other statuses (ERROR, SKIPPED, XFAIL) are not recorded, so such tests are missing.
 * v4 raises on a bare status line (fewer than two words); v5 skips it.
 */
export function parseSeaborn(log: string, profile: GradingProfile): StatusMap {
  const map: StatusMap = new Map();
  for (const line of log.split('\n')) {
    const words = pySplit(line);
    if (words.length < 2) {
      if (profile === 'swebench-v5') continue;
      // v4 indexes words[1] only inside the branches below, so a short line crashes only there.
      if (line.startsWith(FAILED) || line.includes(` ${PASSED} `) || line.startsWith(PASSED))
        throw new ParserCrash('seaborn', line);
      continue;
    }
    if (line.startsWith(FAILED)) map.set(words[1], FAILED);
    else if (line.includes(` ${PASSED} `)) {
      if (words[1] === PASSED) map.set(words[0], PASSED);
    } else if (line.startsWith(PASSED)) map.set(words[1], PASSED);
  }
  return map;
}
