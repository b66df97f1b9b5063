import type { GradingProfile } from '../../../../protocol/grading';
import { pySplit, PY_DOT } from '../pyText';
import { FAILED, isSkipSummary, startsWithStatus, type StatusMap } from '../statuses';

// Python's `(.*?)\[(.*)\]`: the text before the first `[` that a later `]` closes, and the
// parameter up to the last `]`; anything after that `]` is dropped.
const OPTION = new RegExp(`(${PY_DOT}*?)\\[(${PY_DOT}*)\\]`, 'u');

/**
 * The pytest parser for repos whose parameters are file paths (requests, pydicom, pylint): an
 * absolute-path parameter is shortened to `/<basename>` so ids do not depend on where the repo lives.
 */
export function parsePytestOptions(log: string, profile: GradingProfile): StatusMap {
  const map: StatusMap = new Map();
  for (let line of log.split('\n')) {
    if (!startsWithStatus(line)) continue;
    if (line.startsWith(FAILED)) line = line.replaceAll(' - ', ' ');
    const words = pySplit(line);
    if (words.length <= 1) continue;
    if (profile === 'swebench-v5' && isSkipSummary(words[0], words[1])) continue;
    map.set(withShortPathOption(words[1]), words[0]);
  }
  return map;
}

function withShortPathOption(name: string): string {
  const m = OPTION.exec(name);
  if (!m) return name;
  const main = m[1];
  let option = m[2];
  if (option.startsWith('/') && !option.startsWith('//') && !option.includes('*')) {
    option = '/' + option.split('/').at(-1)!;
  }
  return `${main}[${option}]`;
}
