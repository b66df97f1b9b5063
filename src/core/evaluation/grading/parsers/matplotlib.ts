import type { GradingProfile } from '../../../../protocol/grading';
import type { StatusMap } from '../statuses';
import { parsePytestLines } from './pytest';

/** matplotlib's ids print enum parameters by name; the dataset's ids use their values. */
function mouseButtonsAsNumbers(line: string): string {
  return line.replaceAll('MouseButton.LEFT', '1').replaceAll('MouseButton.RIGHT', '3');
}

/** The pytest parser, after renaming matplotlib's MouseButton parameters. */
export function parseMatplotlib(log: string, profile: GradingProfile): StatusMap {
  return parsePytestLines(log, profile, mouseButtonsAsNumbers);
}
