import type { GradingProfile } from '../../../../protocol/grading';
import { beforeFirst, pySplit } from '../pyText';
import { endsWithStatus, FAILED, isSkipSummary, startsWithStatus, type StatusMap } from '../statuses';

// The harness strips `[<n>m` (the tail of an ANSI colour code), then every control character 1..31.
const ANSI_TAIL = /\[(\p{Nd}+)m/gu;
const CONTROL = /[\x01-\x1f]/g;

/**
 * "Later pytest" parser (astropy, scikit-learn, sphinx): the `-rA` summary lines that start with
 * a status, and verbose lines that end with one (`-o console_output_style=classic`, no `[ NN%]`).
 * v4 keeps only the first word of the id (and, for status-at-end lines, takes the second word as
 * the status); v5 keeps the whole id, spaces included, and drops a FAILED line's ` - message`.
 */
export function parsePytestV2(log: string, profile: GradingProfile): StatusMap {
  const v5 = profile === 'swebench-v5';
  const map: StatusMap = new Map();
  for (const raw of log.split('\n')) {
    let line = raw.replace(ANSI_TAIL, '').replace(CONTROL, '');
    if (startsWithStatus(line)) {
      if (line.startsWith(FAILED)) line = v5 ? beforeFirst(line, ' - ') : line.replaceAll(' - ', ' ');
      const words = pySplit(line);
      if (words.length < 2) continue;
      if (!v5) map.set(words[1], words[0]);
      else if (!isSkipSummary(words[0], words[1])) map.set(words.slice(1).join(' '), words[0]);
    } else if (endsWithStatus(line)) {
      const words = pySplit(line);
      if (words.length < 2) continue;
      if (v5) map.set(words.slice(0, -1).join(' '), words.at(-1)!);
      else map.set(words[0], words[1]);
    }
  }
  return map;
}
