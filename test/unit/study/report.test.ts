// The study report aggregates rows with the project's tested statistics (test/unit/stats holds
// their scipy/numpy reference values). Reference values here, from scipy 1.17 / numpy 2.4:
//   binomtest(0, 2, 0.5).pvalue = 0.5          (McNemar exact, discordant 2 vs 0)
//   numpy.percentile([60, 120, 300], [25, 50, 75]) = [90, 120, 210]
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { studyReport } from '../../../src/core/study/report';
import { EMPTY_STUDY, formatP, reportHtmlPage, reportText, studyReportBody } from '../../../src/core/study/reportView';
import { wilsonInterval } from '../../../src/core/stats';
import type { StudyRow } from '../../../src/protocol/studyRecords';

function row(
  participant: string,
  task: string,
  condition: string,
  step: number,
  resolved: boolean | null,
  active: number | null,
): StudyRow {
  return {
    study: 's',
    participant,
    task,
    chain: 'c',
    condition,
    step,
    instanceId: `${task}-${step}`,
    author: active === null ? 'recorded' : 'human',
    status: 'submitted',
    applied: true,
    resolved,
    f2pPassed: null,
    f2pTotal: null,
    p2pPassed: null,
    p2pTotal: null,
    wallSeconds: active === null ? null : active + 30,
    activeSeconds: active,
    pauses: 0,
    testRuns: 0,
    edits: 1,
    reloads: 0,
    overshootLines: 0,
    undershootLines: 0,
    patch: '',
  };
}

// AH: a person solves step 2 on the agent's step 1; AA: the agent's two patches. Outcome = step 2.
const ROWS: StudyRow[] = [
  row('p1', 't1', 'AH', 1, false, null),
  row('p1', 't1', 'AH', 2, true, 60),
  row('p2', 't2', 'AH', 1, true, null),
  row('p2', 't2', 'AH', 2, false, 120),
  row('p1', 't3', 'AH', 2, true, 300),
  row('p2', 't4', 'AH', 2, true, null),
  row('agent', 't1', 'AA', 2, true, null),
  row('agent', 't2', 'AA', 2, false, null),
  row('agent', 't3', 'AA', 2, false, null),
  row('agent', 't4', 'AA', 2, false, null),
];

test('per-condition outcome is the last step, with its Wilson interval', () => {
  const r = studyReport('s', ROWS);
  const ah = r.conditions.find((c) => c.condition === 'AH')!;
  assert.deepEqual(ah.outcome, wilsonInterval(3, 4));
  assert.deepEqual(r.conditions.find((c) => c.condition === 'AA')!.outcome, wilsonInterval(1, 4));
  assert.equal(r.participants, 3);
});

test('time on task: median and IQR of the person-solved steps only', () => {
  const ah = studyReport('s', ROWS).conditions.find((c) => c.condition === 'AH')!;
  assert.deepEqual(
    [ah.activeSeconds.n, ah.activeSeconds.q1, ah.activeSeconds.median, ah.activeSeconds.q3],
    [3, 90, 120, 210],
  );
  assert.equal(ah.wallSeconds.median, 150);
});

test('paired comparison on the tasks both conditions have, with the exact McNemar p', () => {
  const [c] = studyReport('s', ROWS, [['AH', 'AA']]).comparisons;
  assert.deepEqual(c.table, { both: 1, onlyA: 2, onlyB: 0, neither: 1 });
  assert.equal(c.pairs, 4);
  assert.equal(c.pValue, 0.5);
});

test('text and HTML show the same numbers; the page loads nothing from elsewhere', () => {
  const r = studyReport('s', ROWS, [['AH', 'AA']]);
  const text = reportText(r).join('\n');
  assert.match(text, /AH\s+3\s+4\s+75\.0%/);
  assert.match(text, /AH vs AA\s+4\s+1\s+2\s+0\s+1\s+0\.500/);
  const html = reportHtmlPage(r);
  assert.match(html, /<svg/);
  assert.doesNotMatch(html, /<script|src="http|href="http|@import/);
  assert.match(html, /75\.0%/);
  assert.equal(formatP(0.0004), '< 0.001');
});

test('an empty study says what to do instead of drawing empty charts (no axis from -1 to 1)', () => {
  const empty = studyReport('s', []);
  const body = studyReportBody(empty, 'h2');
  assert.doesNotMatch(body, /<svg/);
  assert.match(body, /No results yet/);
  assert.match(body, /Start Study Session/);
  assert.deepEqual(reportText(empty).slice(-1), [EMPTY_STUDY]);
  // Only the agent's rows (AA): the resolve chart, and words instead of an empty time chart.
  const agentOnly = studyReport('s', [row('p1', 't1', 'AA', 1, true, null), row('p1', 't1', 'AA', 2, false, null)]);
  const partly = studyReportBody(agentOnly, 'h2');
  assert.equal((partly.match(/<svg/g) ?? []).length, 1);
  assert.match(partly, /No step solved by a person is recorded yet/);
  assert.doesNotMatch(partly, />-1</);
});

test('a session whose last step is not graded yet has no outcome: it is counted as pending, not unresolved', () => {
  // p3 is on step 2 of t5 under AH (submitted step 1, step 2 open): resolved null on step 2.
  const rows = [...ROWS, row('p3', 't5', 'AH', 1, true, 40), { ...row('p3', 't5', 'AH', 2, null, 10), status: 'open' }];
  const r = studyReport('s', rows, [['AH', 'AA']]);
  const ah = r.conditions.find((c) => c.condition === 'AH')!;
  assert.deepEqual(ah.outcome, wilsonInterval(3, 4), 'the open session changes neither numerator nor denominator');
  assert.equal(ah.pending, 1);
  assert.equal(r.comparisons[0].pairs, 4);
  assert.match(reportText(r).join('\n'), /not counted yet: 1 task session\(s\) .*\(AH: 1\)/);
  assert.match(studyReportBody(r, 'h2'), /not counted yet: 1 task session/);
});
