// `chainlens batch --repeats N` in the report (docs/reference/metrics.md, "Flaky tests"), on records
// built for each case. Two chains of two steps, source m1 and gold, Oracle and Seq, 3 runs a step:
//   C1 position 2: Oracle resolved 3 of 3; Seq resolved 1 of 3, F2P test t changed -> a chain error
//      by its first runs (Oracle R, Seq U) that is NOT STABLE
//   C2 position 2: Oracle resolved 3 of 3 but P2P test p changed; Seq 0 of 3 -> a chain error whose
//      verdicts held, with a flaky test
//   gold C1 position 1 under Oracle: resolved 2 of 3 -> gold does not resolve it every time
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchManifest, BatchRecord, BatchRepeats } from '../../../src/protocol/batch';
import { buildBatchReport, reportCsvFiles, reportHtml, reportText, summarizeRepeats } from '../../../src/core/batch';

const manifest: BatchManifest = {
  format: 'chainlens-batch',
  version: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  dataset: ['/d/chains.jsonl'],
  repos: { '*': '/d/repo' },
  sources: [
    { name: 'm1', kind: 'predictions', path: '/d/m1.jsonl' },
    { name: 'gold', kind: 'gold' },
  ],
  modes: ['oracle', 'seq'],
  chains: ['C1', 'C2'].map((id, i) => ({
    id,
    origin: `/d/chains.jsonl:${i + 1}`,
    repo: 'r/a',
    image: 'img',
    steps: [1, 2].map((k) => ({ order: k, instance_id: `${id}-${k}` })),
  })),
  options: { profile: 'swebench-v5', timeout_s: null, image: null, repo_path_in_image: null, repeats: 3 },
};

function record(
  source: string,
  chain: string,
  mode: 'oracle' | 'seq',
  position: number,
  resolved: boolean,
  repeats: BatchRepeats,
): BatchRecord {
  return {
    version: 1,
    chain_id: chain,
    source,
    mode,
    order: position,
    position,
    instance_id: `${chain}-${position}`,
    status: resolved ? 'resolved' : 'unresolved',
    resolved,
    error: null,
    error_kind: null,
    infra_failure: false,
    tests_status: {
      FAIL_TO_PASS: resolved ? { success: ['t'], failure: [] } : { success: [], failure: ['t'] },
      PASS_TO_PASS: { success: ['p'], failure: [] },
    },
    duration_s: 2,
    log: `logs/${chain}/${source}/${mode}/${position}.log`,
    analysis: null,
    cost: null,
    model: source,
    repeats,
    finished_at: '2026-01-01T00:00:00.000Z',
  };
}

const stable = (resolved: number): BatchRepeats => ({ runs: 3, resolved, flaky_tests: [] });
const records: BatchRecord[] = [];
for (const source of ['m1', 'gold'])
  for (const chain of ['C1', 'C2'])
    for (const mode of ['oracle', 'seq'] as const) records.push(record(source, chain, mode, 1, true, stable(3)));
records.push(
  record('m1', 'C1', 'oracle', 2, true, stable(3)),
  record('m1', 'C1', 'seq', 2, false, { runs: 3, resolved: 1, flaky_tests: ['t'] }),
  record('m1', 'C2', 'oracle', 2, true, { runs: 3, resolved: 3, flaky_tests: ['p'] }),
  record('m1', 'C2', 'seq', 2, false, stable(0)),
);
for (const chain of ['C1', 'C2'])
  for (const mode of ['oracle', 'seq'] as const) records.push(record('gold', chain, mode, 2, true, stable(3)));
// Gold's C1 step 1 under Oracle resolved in 2 of its 3 runs, its F2P test t the one that changed.
records[records.findIndex((r) => r.source === 'gold' && r.chain_id === 'C1' && r.mode === 'oracle')] = record(
  'gold',
  'C1',
  'oracle',
  1,
  true,
  { runs: 3, resolved: 2, flaky_tests: ['t'] },
);

test('summarizeRepeats: a test that passed in one run and failed in another is flaky, in either bucket; the verdicts are counted', () => {
  const run = (resolved: boolean, f2p: [string[], string[]], p2p: [string[], string[]]) => ({
    resolved,
    tests: {
      FAIL_TO_PASS: { success: f2p[0], failure: f2p[1] },
      PASS_TO_PASS: { success: p2p[0], failure: p2p[1] },
    },
  });
  assert.deepEqual(
    summarizeRepeats([
      run(true, [['a', 'b'], []], [['p', 'q'], []]),
      run(false, [['a'], ['b']], [['p', 'q'], []]),
      run(true, [['a', 'b'], []], [['p'], ['q']]),
    ]),
    { runs: 3, resolved: 2, flaky_tests: ['b', 'q'] },
  );
  assert.deepEqual(summarizeRepeats([run(false, [[], ['a']], [['p'], []])]), {
    runs: 1,
    resolved: 0,
    flaky_tests: [],
  });
});

test('the report marks a chain error whose verdict changed as not stable, names the flaky tests of a stable one, and lists gold steps that do not resolve every time', () => {
  const report = buildBatchReport(manifest, records);
  assert.equal(report.repeats, 3);
  assert.deepEqual(
    report.chainErrors.map((e) => [e.source, e.chainId, e.position, e.unstable, e.flakyTests]),
    [
      ['m1', 'C1', 2, true, ['t']],
      ['m1', 'C2', 2, false, ['p']],
    ],
  );
  assert.deepEqual(
    report.flakySteps.map((f) => [f.source, f.mode, f.chainId, f.position, f.resolved, f.runs, f.gold, f.flakyTests]),
    [
      ['gold', 'oracle', 'C1', 1, 2, 3, true, ['t']],
      ['m1', 'seq', 'C1', 2, 1, 3, false, ['t']],
      ['m1', 'oracle', 'C2', 2, 3, 3, false, ['p']],
    ],
  );
  const text = reportText(report);
  assert.match(
    text,
    /m1 {2}C1 {2}position 2 \(C1-2\)[^\n]*\n(?: {4}[^\n]*\n)*? {4}NOT STABLE: the Oracle or Seq verdict changed between identical runs; flaky tests: t\n/,
  );
  assert.match(text, / {4}flaky tests: p \(both verdicts held in every run\)\n/);
  assert.match(
    text,
    /flaky steps \(each graded step evaluated 3 times on the same commit[^\n]*: 3\n {2}gold {2}oracle {2}C1 {2}position 1 \(C1-1\): resolved 2 of 3 \(gold does not resolve it every time\); flaky: t\n/,
  );
  const csv = reportCsvFiles(report, records);
  assert.match(csv['chain_errors.csv'].split('\n')[0], /,unstable,flaky_tests$/);
  assert.match(csv['chain_errors.csv'], /\nm1,C1,2,[^\n]*,true,t\n/);
  assert.equal(csv['flaky_steps.csv'].split('\n')[1], 'gold,oracle,C1,1,C1-1,3,2,true,t');
  const html = reportHtml(report, 'flaky');
  assert.match(html, /<h2>Flaky steps \(3; each graded step evaluated 3 times\)<\/h2>/);
  assert.match(html, /NOT STABLE: the Oracle or Seq verdict changed between identical runs; flaky tests: t/);
});

test('without --repeats the report says nothing of flakiness', () => {
  const once = records.map(({ repeats: _, ...r }) => r);
  const report = buildBatchReport({ ...manifest, options: { ...manifest.options, repeats: undefined } }, once);
  assert.equal(report.repeats, 1);
  assert.deepEqual(report.flakySteps, []);
  assert.ok(report.chainErrors.every((e) => !e.unstable && e.flakyTests.length === 0));
  assert.doesNotMatch(reportText(report), /flaky|NOT STABLE/);
  assert.equal(reportCsvFiles(report, once)['flaky_steps.csv'], undefined);
});
