// The PR1 filter as a step verdict, the conditions as authors, and the analysis across conditions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stepVerdict } from '../../../src/core/evaluation/verdict';
import { judgeOf } from '../../../src/core/codethread/stepJudge';
import { describeFilter, pr1Filter } from '../../../src/core/codethread/filter';
import { conditionAuthors, conditionOf, parseCondition } from '../../../src/core/codethread/conditions';
import { codeThreadAnalysis, type CodeThreadRun } from '../../../src/core/codethread/report';
import type { GradeExplained } from '../../../src/core/evaluation/grading';
import { isUserError } from '../../../src/core/util/errors';

const facts = { patchApplied: true, timedOut: false, cancelled: false, environmentError: null, timeoutS: 10 };

function graded(f2pPass: string[], f2pFail: string[], p2pPass: string[], p2pFail: string[]): GradeExplained {
  return {
    grade: {
      resolution: f2pFail.length === 0 && p2pFail.length === 0 ? 'RESOLVED_FULL' : 'RESOLVED_NO',
      tests_status: {
        FAIL_TO_PASS: { success: f2pPass, failure: f2pFail },
        PASS_TO_PASS: { success: p2pPass, failure: p2pFail },
      },
      status_map: {},
    },
    problem: null,
  } as unknown as GradeExplained;
}

test('PR1 filter: passes when every P2P passes and every F2P still fails', () => {
  const v = stepVerdict(facts, graded([], ['f1', 'f2'], ['p1'], []), judgeOf('pr1-filter'));
  assert.deepEqual(
    [v.status, v.resolved, v.filter],
    ['resolved', true, { passed: true, p2p_failing: [], f2p_passing: [] }],
  );
  // The same log graded as the benchmark does: F2P fail, so not resolved.
  assert.equal(stepVerdict(facts, graded([], ['f1', 'f2'], ['p1'], [])).status, 'unresolved');
});

test('PR1 filter: fails naming the P2P that do not pass and the F2P already passing', () => {
  const v = stepVerdict(facts, graded(['f1'], ['f2'], ['p1'], ['p2', 'p3']), judgeOf('pr1-filter'));
  assert.equal(v.status, 'unresolved');
  assert.deepEqual(v.filter, { passed: false, p2p_failing: ['p2', 'p3'], f2p_passing: ['f1'] });
  assert.equal(describeFilter(v.filter!), 'filter failed (P2P not passing: p2, p3; F2P already passing: f1)');
  // a fully resolved log fails the filter: the follow-on issue is already solved
  assert.equal(pr1Filter(graded(['f1'], [], ['p1'], []).grade.tests_status).passed, false);
});

test('PR1 filter: an error before grading stays an error', () => {
  const v = stepVerdict({ ...facts, patchApplied: false }, null, judgeOf('pr1-filter'));
  assert.equal(v.status, 'error');
  assert.equal(v.filter, undefined);
});

test('conditions map onto authors and back', () => {
  assert.equal(conditionAuthors('HH'), 'gold,gold');
  assert.equal(conditionAuthors('HA'), 'gold,recorded');
  assert.equal(conditionAuthors('AA'), 'recorded,recorded');
  assert.equal(conditionAuthors('AH'), 'recorded,human');
  type Kind = 'gold' | 'human' | 'recorded' | 'agent-live';
  const kinds = (a: Kind, b: Kind) => [{ kind: a }, { kind: b }];
  assert.equal(conditionOf(kinds('gold', 'gold')), 'HH');
  assert.equal(conditionOf(kinds('gold', 'recorded')), 'HA');
  assert.equal(conditionOf(kinds('recorded', 'agent-live')), 'AA');
  assert.equal(conditionOf(kinds('recorded', 'human')), 'AH');
  assert.equal(conditionOf(kinds('human', 'recorded')), 'HA');
  assert.equal(conditionOf(kinds('gold', 'human')), 'HH');
  assert.equal(conditionOf([{ kind: 'gold' }]), null);
  assert.equal(parseCondition('ha'), 'HA');
  assert.throws(
    () => parseCondition('XX'),
    (e: unknown) => isUserError(e) && e.kind === 'usage',
  );
});

const run = (
  instanceId: string,
  condition: CodeThreadRun['condition'],
  filterPassed: boolean | null,
  pr2Resolved: boolean | null,
): CodeThreadRun => ({
  dir: `/w/${condition}/${instanceId}`,
  instanceId,
  condition,
  filterPassed,
  pr2Resolved,
});

test('analysis: rates on shared instances, HA-vs-AA discordant pairs and exact McNemar', () => {
  const runs: CodeThreadRun[] = [];
  // 8 instances; HA resolves 7, AA resolves 2 of them; i8's AA PR1 failed the filter.
  for (let i = 1; i <= 8; i++) {
    runs.push(run(`i${i}`, 'HA', true, i <= 7));
    runs.push(run(`i${i}`, 'AA', i !== 8, i <= 2));
  }
  const r = codeThreadAnalysis(runs);
  assert.deepEqual(r.sharedInstances, ['i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7']);
  assert.deepEqual(
    r.rates.map((c) => [c.condition, c.shared.successes, c.shared.total]),
    [
      ['HA', 7, 7],
      ['AA', 2, 7],
    ],
  );
  const [pair] = r.pairs;
  assert.deepEqual(
    [pair.a, pair.b, pair.n, pair.both, pair.onlyA, pair.onlyB, pair.neither],
    ['HA', 'AA', 7, 2, 5, 0, 0],
  );
  assert.deepEqual(pair.onlyAInstances, ['i3', 'i4', 'i5', 'i6', 'i7']);
  // two-sided exact binomial: 2 * 0.5^5
  assert.ok(Math.abs(pair.p - 0.0625) < 1e-12);
  assert.deepEqual(r.excluded, [{ dir: '/w/AA/i8', why: 'PR1 did not pass the filter' }]);
});

test('analysis: unevaluated steps and a repeated run are left out, saying why', () => {
  const r = codeThreadAnalysis([
    run('a', 'HH', true, true),
    run('a', 'HH', true, false),
    run('b', 'HH', null, null),
    run('c', 'HH', true, null),
  ]);
  assert.deepEqual(
    r.excluded.map((e) => e.why),
    ['a second HH run of a (the first given, /w/HH/a, counts)', 'step 1 was not evaluated', 'step 2 was not evaluated'],
  );
  assert.deepEqual(r.rates[0].shared.successes, 1);
});
