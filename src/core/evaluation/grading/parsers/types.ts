import type { GradingProfile } from '../../../../protocol/grading';
import type { StatusMap } from '../statuses';

/**
 * What a few harness parsers read from the instance besides the log (its TestSpec): jekyll and
 * immutable-js pick a runner by the PR number in the instance id, next and lighthouse by version.
 */
export interface ParserContext {
  readonly instanceId?: string;
  readonly version?: string;
}

/** Log text -> status map, by the rules of one harness version. May throw ParserCrash. */
export type LogParser = (log: string, profile: GradingProfile, ctx: ParserContext) => StatusMap;
