// ChainLens against the SWE-bench harness on the multilingual corpus: real logs of go test, cargo,
// jest, vitest, mocha, Maven + JUnit, PHPUnit, minitest, test-unit, RSpec, GoogleTest and doctest
// runs (plus constructed logs for runners not run here, and every log cut off twice), graded by
// every parser that applies, under both harness versions. Expected values are the harness's own
// results (truth.json): status maps in order, crashes, get_logs_eval's verdict, and the F2P/P2P
// report and resolution of every scenario.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildTestsStatus,
  inspectLog,
  resolutionOf,
  type GradingProfile,
} from '../../../../src/core/evaluation/grading/index';
import { LOG_PARSERS } from '../../../../src/core/evaluation/grading/parsers/index';
import { ParserCrash } from '../../../../src/core/evaluation/grading/parserCrash';
import { LOG_PARSER_NAMES } from '../../../../src/protocol/grading';
import { caseVariants, corpusCases, harnessTruth, outcomes, scenarios } from './multilingualFixtures';

const PROFILES: GradingProfile[] = ['swebench-v5', 'swebench-v4'];
const truth = harnessTruth();
const cases = corpusCases();

function parseOrCrash(fn: () => Map<string, string>): { map?: [string, string][]; crash?: string } {
  try {
    return { map: [...fn()] };
  } catch (e) {
    if (e instanceof ParserCrash) return { crash: e.pythonError };
    throw e;
  }
}

for (const c of cases) {
  test(`${c.name}: every parser agrees with the harness (${c.parsers.join(', ')})`, () => {
    const ctx = { instanceId: c.instanceId ?? 'corpus__case-0', version: c.version ?? '0' };
    for (const [variant, log] of caseVariants(c)) {
      for (const parser of c.parsers) {
        for (const profile of PROFILES) {
          const where = `${variant} | ${parser} | ${profile}`;
          const expected = truth.results[profile][`${variant}|${parser}`];
          assert.ok(expected, `${where}: no harness result (regenerate truth.json)`);
          if (expected.absent) continue; // release 4.1 has no such parser

          const parsed = parseOrCrash(() => LOG_PARSERS[parser](log, profile, ctx));
          if (expected.parse!.crash !== undefined) {
            assert.ok(
              parsed.crash !== undefined,
              `${where}: the harness raises ${expected.parse!.crash}, ChainLens did not`,
            );
            assert.equal(parsed.crash.split(':')[0], expected.parse!.crash.split(':')[0], where);
          } else {
            assert.deepEqual(parsed, { map: expected.parse!.map }, `${where}: status map`);
          }

          const inspection = inspectLog(log, parser, profile, ctx);
          if (expected.eval!.crash !== undefined) {
            assert.equal(inspection.problem?.kind, 'parser-crashed', `${where}: the harness's get_logs_eval raises`);
            continue;
          }
          assert.equal(inspection.usable, expected.eval!.found, `${where}: usable (${inspection.problem?.message})`);
          if (!inspection.usable) continue;
          assert.deepEqual([...inspection.statusMap], expected.eval!.map, `${where}: graded status map`);
          const runs = scenarios([...inspection.statusMap.keys()]);
          assert.equal(runs.length, expected.reports!.length, where);
          runs.forEach(([f2p, p2p, evalType], i) => {
            const tests = buildTestsStatus(inspection.statusMap, f2p, p2p, evalType, profile);
            const got = [outcomes(f2p, tests.FAIL_TO_PASS), outcomes(p2p, tests.PASS_TO_PASS), resolutionOf(tests)];
            assert.deepEqual(
              got,
              expected.reports![i],
              `${where}: scenario ${i} (${evalType}, ${f2p.length} F2P, ${p2p.length} P2P)`,
            );
            assert.deepEqual(tests.FAIL_TO_FAIL, { success: [], failure: [] });
            assert.deepEqual(tests.PASS_TO_FAIL, { success: [], failure: [] });
          });
        }
      }
    }
  });
}

test('the corpus exercises every parser the harness has beyond Python, and says which harness commits', () => {
  const python = ['pytest', 'pytest-options', 'pytest-v2', 'django', 'sympy', 'seaborn', 'matplotlib'];
  const covered = new Set(cases.flatMap((c) => c.parsers));
  const missing = LOG_PARSER_NAMES.filter((p) => !python.includes(p) && !covered.has(p));
  assert.deepEqual(missing, []);
  for (const profile of PROFILES) assert.match(truth.harness[profile], /^[0-9a-f]{40}$/);
});

test('real build errors: v5 rejects a log where nothing ran, v4 grades it as all tests missing', () => {
  const v5 = truth.results['swebench-v5'];
  const v4 = truth.results['swebench-v4'];
  for (const key of [
    'cargo-compile-error-v5|cargo',
    'gtest-compile-error-v5|googletest',
    'phpunit-parse-error-v5|phpunit',
  ]) {
    assert.equal(v5[key].eval!.found, false, key);
    assert.deepEqual(v4[key].eval, { found: true, map: [] }, key);
  }
  const noTests = inspectLog(
    caseVariants(cases.find((c) => c.name === 'cargo-compile-error-v5')!)[0][1],
    'cargo',
    'swebench-v5',
  );
  assert.equal(noTests.problem?.kind, 'no-tests-ran');
  // jest prints "Test Suites: 1 failed, 1 total" even when the suite could not load: v5 takes that as "ran".
  assert.deepEqual(v5['jest-syntax-error-v5|jest'].eval, { found: true, map: [] });
  // go test builds package by package: the package that built still reports its tests.
  assert.deepEqual(v5['go-build-error-v5|gotest'].eval!.map, [
    ['TestClamp', 'PASSED'],
    ['TestClampEmptyRange', 'FAILED'],
  ]);
  // Maven fails the whole build for a compile error, so every -Dtest= run reads FAILED.
  assert.ok(v5['maven-compile-error-v5|maven'].eval!.map!.every(([, s]) => s === 'FAILED'));
});
