import type { GradingProfile } from '../../../../../protocol/grading';
import { ParserCrash } from '../../parserCrash';
import { pyFloatOrNull } from '../../pyText';
import type { StatusMap } from '../../statuses';
import type { ParserContext } from '../types';
import { parseJest, parseJestFiles, parseJestJson } from './jestFamily';
import { parseLighthouseJson } from './jsonReports';
import { parseLighthouseMocha } from './mochaFamily';
import { parseNextV1, parseNextV2 } from './suiteRunners';

/**
 * javascript.py parse_log_immutable_js: instance 2006 ran `jest --verbose`, 2005 `jest --json`
 * through jq (the PR number is the id's last "-"-separated field); any other instance makes the
 * harness raise ValueError.
 */
export function parseImmutableJs(log: string, profile: GradingProfile, ctx: ParserContext): StatusMap {
  const id = requireInstance('immutable-js', ctx);
  const pr = id.split('-').at(-1);
  if (pr === '2006') return parseJest(log, profile);
  if (pr === '2005') return parseJestJson(log);
  throw new ParserCrash('immutable-js', id, `ValueError: Unknown instance id: ${id}`);
}

/** javascript.py parse_log_next: version 1.27 ran cypress (next_v2), every other version karma (next_v1). */
export function parseNext(log: string, _profile: GradingProfile, ctx: ParserContext): StatusMap {
  return ctx.version === '1.27' ? parseNextV2(log) : parseNextV1(log);
}

/**
 * javascript.py parse_log_lighthouse: versions 9.5, 10.0 and 10.2 ran mocha's spec reporter,
 * versions from 3 on jest (the file-level PASS/FAIL parser), older ones mocha's JSON reporter.
 * A version Python's float() cannot read makes the harness raise.
 */
export function parseLighthouse(log: string, _profile: GradingProfile, ctx: ParserContext): StatusMap {
  const version = ctx.version;
  if (version !== undefined && ['9.5', '10.0', '10.2'].includes(version)) return parseLighthouseMocha(log);
  const number = version === undefined ? null : pyFloatOrNull(version);
  if (number === null)
    throw new ParserCrash('lighthouse', String(version), `ValueError: could not convert string to float: '${version}'`);
  if (number >= 3) return parseJestFiles(log);
  return parseLighthouseJson(log);
}

function requireInstance(parser: string, ctx: ParserContext): string {
  if (ctx.instanceId === undefined)
    throw new ParserCrash(parser, '(no instance id)', 'the parser picks its runner by instance id, and none was given');
  return ctx.instanceId;
}
