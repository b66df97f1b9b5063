import type { GradingProfile } from '../../../../protocol/grading';
import { pySplit } from '../pyText';
import { FAILED, isSkipSummary, startsWithStatus, type StatusMap } from '../statuses';

/**
 * pytest `-rA` short summary: `STATUS id[ - message]`. The id is the first word after the
 * status, so ids containing spaces are cut there (both versions).
 * v4 records folded `SKIPPED [N] file:line: reason` summaries as a test named `[N]`; v5 skips them.
 */
export function parsePytest(log: string, profile: GradingProfile): StatusMap {
  return parsePytestLines(log, profile, (line) => line);
}

/** The pytest parser with a per-line rewrite applied first (the matplotlib parser's MouseButton names). */
export function parsePytestLines(log: string, profile: GradingProfile, rewrite: (line: string) => string): StatusMap {
  const map: StatusMap = new Map();
  for (const raw of log.split('\n')) {
    let line = rewrite(raw);
    if (!startsWithStatus(line)) continue;
    if (line.startsWith(FAILED)) line = line.replaceAll(' - ', ' ');
    const words = pySplit(line);
    if (words.length <= 1) continue;
    if (profile === 'swebench-v5' && isSkipSummary(words[0], words[1])) continue;
    map.set(words[1], words[0]);
  }
  return map;
}
