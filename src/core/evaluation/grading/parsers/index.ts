import type { GradingProfile, LogParserName } from '../../../../protocol/grading';
import type { StatusMap } from '../statuses';
import { parseDjango } from './django';
import { parseMatplotlib } from './matplotlib';
import { parsePytest } from './pytest';
import { parsePytestOptions } from './pytestOptions';
import { parsePytestV2 } from './pytestV2';
import { parseSeaborn } from './seaborn';
import { parseSympy } from './sympy';

/** Log text -> status map, by the rules of one harness version. May throw ParserCrash. */
export type LogParser = (log: string, profile: GradingProfile) => StatusMap;

export const LOG_PARSERS: Readonly<Record<LogParserName, LogParser>> = {
  pytest: parsePytest,
  'pytest-options': parsePytestOptions,
  'pytest-v2': parsePytestV2,
  django: parseDjango,
  sympy: parseSympy,
  seaborn: parseSeaborn,
  matplotlib: parseMatplotlib,
};
