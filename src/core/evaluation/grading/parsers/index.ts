import type { LogParserName } from '../../../../protocol/grading';
import { parseDjango } from './django';
import { parseDoctest } from './doctest';
import { parseGoTest } from './go';
import { parseAnt, parseGradleCustom, parseMaven } from './java';
import { parseBpmnJs, parseChartJs, parseKarma, parseOpenlayers } from './javascript/browserRunners';
import { parseImmutableJs, parseLighthouse, parseNext } from './javascript/byInstance';
import {
  parseEmotion,
  parseGrommet,
  parseJest,
  parseJestFiles,
  parseJestJson,
  parseTap,
  parseVitest,
} from './javascript/jestFamily';
import { parseCypress, parsePrismjs } from './javascript/jsonReports';
import { parseEslint, parseHighlightjs, parseMarked } from './javascript/mochaFamily';
import { parseP5js } from './javascript/p5js';
import { parseQuartoCli } from './javascript/quarto';
import { parseCalypso, parsePlotlyJs } from './javascript/suiteRunners';
import { parseGoogletest, parseJq, parseMicropythonTest, parseRedis } from './c';
import { parseMatplotlib } from './matplotlib';
import { parsePhpunit } from './php';
import { parsePytest } from './pytest';
import { parsePytestOptions } from './pytestOptions';
import { parsePytestV2 } from './pytestV2';
import { parseCucumber, parseJekyll, parseMinitest, parseRspecTransformedJson, parseRubyUnit } from './ruby';
import { parseCargo } from './rust';
import { parseSeaborn } from './seaborn';
import { parseSympy } from './sympy';
import type { LogParser } from './types';

export type { LogParser, ParserContext } from './types';

export const LOG_PARSERS: Readonly<Record<LogParserName, LogParser>> = {
  pytest: parsePytest,
  'pytest-options': parsePytestOptions,
  'pytest-v2': parsePytestV2,
  django: parseDjango,
  sympy: parseSympy,
  seaborn: parseSeaborn,
  matplotlib: parseMatplotlib,
  gotest: parseGoTest,
  cargo: parseCargo,
  maven: parseMaven,
  ant: parseAnt,
  'gradle-custom': parseGradleCustom,
  redis: parseRedis,
  jq: parseJq,
  doctest: parseDoctest,
  'micropython-test': parseMicropythonTest,
  googletest: parseGoogletest,
  phpunit: parsePhpunit,
  minitest: parseMinitest,
  cucumber: parseCucumber,
  'ruby-unit': parseRubyUnit,
  'rspec-transformed-json': parseRspecTransformedJson,
  jekyll: parseJekyll,
  jest: parseJest,
  'jest-json': parseJestJson,
  vitest: parseVitest,
  karma: parseKarma,
  tap: parseTap,
  'immutable-js': parseImmutableJs,
  calypso: parseCalypso,
  'chart-js': parseChartJs,
  marked: parseMarked,
  p5js: parseP5js,
  'react-pdf': parseJestFiles,
  carbon: parseJestFiles,
  'bpmn-js': parseBpmnJs,
  eslint: parseEslint,
  highlightjs: parseHighlightjs,
  prismjs: parsePrismjs,
  openlayers: parseOpenlayers,
  emotion: parseEmotion,
  grommet: parseGrommet,
  next: parseNext,
  cypress: parseCypress,
  'plotly-js': parsePlotlyJs,
  lighthouse: parseLighthouse,
  'quarto-cli': parseQuartoCli,
};

/** Parsers that read the instance id (jekyll, immutable-js) or version (next, lighthouse) besides the log. */
export const PARSERS_NEEDING_INSTANCE: ReadonlySet<LogParserName> = new Set(['jekyll', 'immutable-js']);
export const PARSERS_NEEDING_VERSION: ReadonlySet<LogParserName> = new Set(['next', 'lighthouse']);
