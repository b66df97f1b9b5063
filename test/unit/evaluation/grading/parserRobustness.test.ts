// No log makes a parser fail in a way the harness would not: on arbitrary text (runner-like lines
// cut, shuffled and salted with odd characters) every parser returns a status map or raises
// ParserCrash (where the harness's Python raises), never any other error. What each returns is
// pinned against the harness in multilingualCorpus.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOG_PARSERS } from '../../../../src/core/evaluation/grading/parsers/index';
import { ParserCrash } from '../../../../src/core/evaluation/grading/parserCrash';
import { seededRandom as random } from '../../../../src/core/study/random';
import { LOG_PARSER_NAMES, type GradingProfile } from '../../../../src/protocol/grading';
import { corpusCases, readCaseLog } from './multilingualFixtures';

const SALT = [
  '\u00a0',
  '\x1c',
  '\u2028',
  '\r',
  '\t',
  '\x1b[31m',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '<',
  '>',
  '"',
  ':',
  '#',
  '٣',
  '\ud83d\ude00',
  '\ufffd',
];

test('every parser, both profiles: arbitrary text gives a status map or the harness crash, nothing else', () => {
  const lines = corpusCases().flatMap((c) => readCaseLog(c).split('\n'));
  const next = random(17);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  for (let round = 0; round < 60; round++) {
    const log = Array.from({ length: 1 + Math.floor(next() * 40) }, () => {
      let line = pick(lines);
      if (next() < 0.3) line = line.slice(0, Math.floor(next() * line.length));
      if (next() < 0.3) {
        const at = Math.floor(next() * (line.length + 1));
        line = line.slice(0, at) + pick(SALT) + line.slice(at);
      }
      return line;
    }).join('\n');
    for (const parser of LOG_PARSER_NAMES) {
      for (const profile of ['swebench-v5', 'swebench-v4'] as GradingProfile[]) {
        try {
          const map = LOG_PARSERS[parser](log, profile, {
            instanceId: pick(['a__b-9141', 'a__b-2006', 'x']),
            version: pick(['1.27', '9.5', '3', 'x']),
          });
          for (const [k, v] of map) assert.equal(typeof k === 'string' && typeof v === 'string', true);
        } catch (e) {
          if (!(e instanceof ParserCrash)) assert.fail(`${parser} ${profile} round ${round}: ${(e as Error).stack}`);
        }
      }
    }
  }
});
