// ChainSWE's tables (docs/reference/metrics.md) on records built for each case, every figure
// against a value worked out by hand below. Five chains, one prediction source m1, Oracle and Seq
// (R resolved, U unresolved, E error, X left out: the engine went away):
//   C1 r/a SWE-Gym     oracle E R R  | seq E E E   step 1 adds a conftest.py that breaks collection
//   C2 r/a SWE-rebench oracle R R R  | seq R U R   step 1 undershoots x.py::f, which step 2 needs
//   C3 r/b SWE-rebench oracle R R R  | seq R R U   step 2 overshoots into y.py::g, which step 3 changes
//   C4 r/c (none)      oracle R X    | seq U R
//   C5 r/b SWE-rebench oracle R U    | seq R U     step 2 is hard in both modes: not a chain error
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchManifest, BatchRecord } from '../../../src/protocol/batch';
import { buildBatchReport, exclusionReason, reportCsvFiles, reportHtml, reportText } from '../../../src/core/batch';

type Outcome = 'R' | 'U' | 'E' | 'X';
const NO_TESTS = 'no test results in the log and no sign that a test suite ran';

const chains: [string, string, string | undefined, number][] = [
  ['C1', 'r/a', 'SWE-Gym', 3],
  ['C2', 'r/a', 'SWE-rebench', 3],
  ['C3', 'r/b', 'SWE-rebench', 3],
  ['C4', 'r/c', undefined, 2],
  ['C5', 'r/b', 'SWE-rebench', 2],
];
const manifest: BatchManifest = {
  format: 'chainlens-batch',
  version: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  dataset: ['/d/chains.jsonl'],
  repos: { '*': '/d/repo' },
  sources: [{ name: 'm1', kind: 'predictions', path: '/d/m1.jsonl' }],
  modes: ['oracle', 'seq'],
  chains: chains.map(([id, repo, source, n], i) => ({
    id,
    origin: `/d/chains.jsonl:${i + 1}`,
    repo,
    ...(source ? { source } : {}),
    image: 'img',
    steps: Array.from({ length: n }, (_, k) => ({ order: k + 1, instance_id: `${id}-${k + 1}` })),
  })),
  options: { profile: 'swebench-v5', timeout_s: null, image: null, repo_path_in_image: null },
};

function record(
  chain: string,
  mode: 'oracle' | 'seq',
  position: number,
  outcome: Outcome,
  extra: Partial<BatchRecord> = {},
): BatchRecord {
  const f2pFails = outcome === 'U' && !extra.tests_status;
  return {
    version: 1,
    chain_id: chain,
    source: 'm1',
    mode,
    order: position,
    position,
    instance_id: `${chain}-${position}`,
    status: outcome === 'R' ? 'resolved' : outcome === 'U' ? 'unresolved' : 'error',
    resolved: outcome === 'R',
    error: outcome === 'E' ? NO_TESTS : outcome === 'X' ? 'Docker engine error: engine gone' : null,
    error_kind: outcome === 'E' ? 'log' : outcome === 'X' ? 'environment' : null,
    infra_failure: outcome === 'X',
    tests_status: {
      FAIL_TO_PASS: f2pFails ? { success: [], failure: ['t'] } : { success: ['t'], failure: [] },
      PASS_TO_PASS: { success: ['p'], failure: [] },
    },
    duration_s: 2,
    log: `logs/${chain}/${mode}/${position}.log`,
    analysis: null,
    cost: null,
    model: 'm1',
    finished_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

const analysis = (
  files: string[],
  goldSymbols: string[],
  marks: { overshoot?: [string, string][]; undershoot?: [string, string][] } = {},
) => ({
  step_files: files,
  gold_files: files,
  gold_symbols: goldSymbols,
  overshoot: (marks.overshoot ?? []).map(([file, symbol]) => ({ file, symbol })),
  undershoot: (marks.undershoot ?? []).map(([file, symbol]) => ({ file, symbol })),
});

const lanes: [string, 'oracle' | 'seq', Outcome[]][] = [
  ['C1', 'oracle', ['E', 'R', 'R']],
  ['C1', 'seq', ['E', 'E', 'E']],
  ['C2', 'oracle', ['R', 'R', 'R']],
  ['C2', 'seq', ['R', 'U', 'R']],
  ['C3', 'oracle', ['R', 'R', 'R']],
  ['C3', 'seq', ['R', 'R', 'U']],
  ['C4', 'oracle', ['R', 'X']],
  ['C4', 'seq', ['U', 'R']],
  ['C5', 'oracle', ['R', 'U']],
  ['C5', 'seq', ['R', 'U']],
];
const special: Record<string, Partial<BatchRecord>> = {
  // Written before a suite left uncollectable became the solver's: infra_failure true, same message.
  'C1/seq/1': { infra_failure: true, error_kind: 'environment' },
  'C2/seq/1': {
    analysis: analysis(['x.py'], ['x.py::f'], { undershoot: [['x.py', 'f']] }),
    cost: 0.5,
    peak_context_tokens: 1000,
  },
  'C2/seq/2': { analysis: analysis(['x.py'], ['x.py::f']), cost: 0.5, peak_context_tokens: 5000 },
  'C2/seq/3': { cost: 0.5, peak_context_tokens: null },
  'C3/seq/1': { cost: 1 },
  'C3/seq/2': {
    analysis: analysis(['y.py', 'z.py'], ['z.py::h'], { overshoot: [['y.py', 'g']] }),
    cost: 1,
    peak_context_tokens: 2000,
  },
  'C3/seq/3': {
    analysis: analysis(['y.py'], ['y.py::g']),
    cost: 1,
    tests_status: { FAIL_TO_PASS: { success: ['t'], failure: [] }, PASS_TO_PASS: { success: [], failure: ['p'] } },
  },
  'C1/seq/2': { cost: 9 }, // C1's other steps have no cost: C1 is not in the cost per chain
};
const records = lanes.flatMap(([chain, mode, outcomes]) =>
  outcomes.map((o, i) => record(chain, mode, i + 1, o, special[`${chain}/${mode}/${i + 1}`])),
);
const report = buildBatchReport(manifest, records);
const headline = (mode: string) => report.headline.find((h) => h.mode === mode)!;
const close = (actual: number | null | undefined, expected: number, what = '') =>
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-9,
    `${what}: ${actual} != ${expected}`,
  );

test("a suite the solver left uncollectable stays in every denominator; only what is not the solver's leaves, with its reason", () => {
  assert.equal(
    exclusionReason(records.find((r) => r.chain_id === 'C1' && r.mode === 'seq' && r.position === 1)!),
    null,
  );
  assert.deepEqual(report.excluded, [{ reason: 'engine gone', count: 1, example: 'Docker engine error: engine gone' }]);
  const seq = report.groups.find((g) => g.mode === 'seq')!;
  // C1 1 + 2 + 3 + C4 2 + C5 2 = 13 steps, every one judged; no-usable-patch: C1's three.
  assert.deepEqual([seq.steps.successes, seq.steps.total, seq.infraFailures], [6, 13, 0]);
  assert.equal(seq.fingerprints['no-usable-patch'], 3);
  assert.match(reportText(report), /left out of every denominator \(not the solver's\): 1: engine gone 1/);
});

test('Table 2: Seq scored until the first unresolved bug is the headline, every step graded beside it', () => {
  const s = headline('seq');
  assert.equal(s.rule, 'scored-until-first-unresolved');
  // Leading resolved steps: C1 0, C2 1, C3 2, C4 0, C5 1 = 4 of 13 bugs; no chain fully resolved.
  assert.deepEqual([s.perBug.successes, s.perBug.total, s.chain.successes, s.chain.total], [4, 13, 0, 5]);
  // Every step graded: C1 0, C2 2, C3 2, C4 1, C5 1 = 6 of 13.
  assert.deepEqual([s.everyStep.perBug.successes, s.everyStep.perBug.total], [6, 13]);
  const o = headline('oracle');
  assert.equal(o.rule, 'every-step-graded');
  // C1 2/3, C2 3/3, C3 3/3, C4 1/1 (step 2 left out), C5 1/2 = 10/12; complete chains C1 C2 C3 C5: 2 resolved.
  assert.deepEqual([o.perBug.successes, o.perBug.total, o.chain.successes, o.chain.total], [10, 12, 2, 4]);
  assert.deepEqual(o.perBug, { ...o.everyStep.perBug });
  const text = reportText(report);
  assert.match(text, /m1 +seq +scored until first unresolved +4\/13 30\.8%/);
  assert.match(text, /every step graded \(no scoring rule\)/);
});

test("drops are given relative (the paper's red subscripts) and absolute", () => {
  const v = headline('seq').vsOracle!;
  close(v.perBugAbsolute, 4 / 13 - 10 / 12, 'per-bug absolute');
  close(v.perBugRelative, 4 / 13 / (10 / 12) - 1, 'per-bug relative'); // −63.1%
  close(v.chainAbsolute, -0.5, 'chain absolute');
  close(v.chainRelative, -1, 'chain relative');
  assert.match(reportText(report), /−63% \(-52\.6 pts\)/);
  // Paired steps: resolved only under Oracle C1/2 C1/3 C2/2 C3/3 C4/1, none only under Seq: p = 2 * 0.5^5.
  assert.deepEqual([v.paired.onlyA, v.paired.onlyB], [5, 0]);
  close(v.paired.p, 0.0625, 'McNemar');
  // The paired drop at position 2: Oracle C1 C2 C3 C5 = 3/4 (C4 has no Oracle verdict), Seq 1/4.
  const d2 = report.drops.find((d) => d.position === 2)!;
  assert.deepEqual([d2.pairs, d2.oracle.successes, d2.seq.successes], [4, 3, 1]);
  close(d2.relative, 1 / 4 / (3 / 4) - 1, 'position 2 relative');
});

test('chain-error share of downstream Seq failures, by position, with the cause split', () => {
  assert.deepEqual(
    report.chainErrors.map((e) => [e.chainId, e.position, e.fingerprint, e.cause]),
    [
      ['C1', 2, 'no-usable-patch', 'other'],
      ['C1', 3, 'no-usable-patch', 'other'],
      ['C2', 2, 'left-bug-unfixed', 'undershoot'],
      ['C3', 3, 'broke-working-code', 'overshoot'],
    ],
  );
  const rows = report.chainErrorShares.map((s) => [
    s.position,
    s.share.successes,
    s.share.total,
    s.unpaired,
    s.causes.overshoot,
    s.causes.undershoot,
    s.causes.other,
  ]);
  // Downstream Seq failures: C1/2 C1/3 C2/2 C3/3 C5/2 (5); chain errors the four above.
  assert.deepEqual(rows, [
    [0, 4, 5, 0, 1, 1, 2],
    [2, 2, 3, 0, 0, 1, 1],
    [3, 2, 2, 0, 1, 0, 1],
  ]);
  // Fig. 4b: C1's two no-usable-patch, C2 left-bug-unfixed, C3 broke-working-code.
  assert.deepEqual(report.chainErrorShares[0].fingerprints, {
    'broke-working-code': 1,
    'left-bug-unfixed': 1,
    'no-usable-patch': 2,
  });
});

test('position tables are restricted to chains of one length (Tables 3-4)', () => {
  const cell = (length: number, mode: string, position: number) =>
    report.lengthPositions.find((r) => r.length === length && r.mode === mode && r.position === position)!;
  const three = (mode: string) =>
    [1, 2, 3].map((p) => [cell(3, mode, p).everyStep.successes, cell(3, mode, p).everyStep.total]);
  assert.deepEqual(three('oracle'), [
    [2, 3],
    [3, 3],
    [3, 3],
  ]);
  assert.deepEqual(three('seq'), [
    [2, 3],
    [1, 3],
    [1, 3],
  ]);
  // Under Table 2's rule: first-k-resolved of C1 (0), C2 (1), C3 (2).
  assert.deepEqual(
    [1, 2, 3].map((p) => cell(3, 'seq', p).scored.successes),
    [2, 1, 0],
  );
  close(cell(3, 'seq', 2).relative, -2 / 3, 'length 3 position 2');
  assert.equal(cell(3, 'seq', 1).chains, 3);
  // Length 2: Oracle position 2 resolves 0 of 1 (C4 left out), so the relative change is undefined.
  assert.equal(cell(2, 'seq', 2).relative, null);
  assert.deepEqual([cell(2, 'seq', 2).everyStep.successes, cell(2, 'seq', 2).everyStep.total], [1, 2]);
});

test('tables by dataset source and by repository (Tables 7 and 9), sorted by chain count', () => {
  const seq = (by: string) =>
    report.breakdowns
      .filter((r) => r.by === by && r.mode === 'seq')
      .map((r) => [r.key, r.chains, r.bugs, r.perBug.successes, r.perBug.total, r.everyStepPerBug.successes]);
  assert.deepEqual(seq('dataset-source'), [
    ['SWE-rebench', 3, 8, 4, 8, 5],
    ['(none)', 1, 2, 0, 2, 1],
    ['SWE-Gym', 1, 3, 0, 3, 0],
  ]);
  assert.deepEqual(seq('repository'), [
    ['r/a', 2, 6, 1, 6, 2],
    ['r/b', 2, 5, 3, 5, 3],
    ['r/c', 1, 2, 0, 2, 1],
  ]);
});

test('cost per chain over chains costed at every step; peak context is the largest of a chain, averaged', () => {
  const s = headline('seq');
  // C2 0.5 * 3 = 1.5, C3 1 * 3 = 3; C1 has one cost only.
  close(s.costPerChain, 2.25, 'cost');
  assert.equal(s.chainsWithCost, 2);
  // C2 max(1000, 5000) = 5000, C3 2000.
  close(s.peakContextPerChain, 3500, 'peak');
  assert.equal(s.chainsWithContext, 2);
  assert.equal(headline('oracle').costPerChain, null);
});

test('the repository bootstrap resamples repositories: its bounds are the extreme repositories here', () => {
  // Seq per-bug by repository: r/a 1/6, r/b 3/5, r/c 0/2. Three repositories drawn with replacement:
  // all three r/c (rate 0) and all three r/b (rate 0.6) each come up with probability 1/27 > 2.5%.
  const b = headline('seq').perBug.byRepository;
  assert.deepEqual([b.low, b.high, b.clusters, b.replicates, b.seed], [0, 0.6, 3, 2000, 1]);
  assert.deepEqual(buildBatchReport(manifest, records).headline[1].perBug.byRepository, b);
});

test("a chain the rule cannot score (a step before its first failure left out) leaves the rule's figures", () => {
  const m: BatchManifest = { ...manifest, chains: manifest.chains.filter((c) => c.id === 'C2' || c.id === 'C4') };
  const rs = [
    ...['R', 'X', 'U'].map((o, i) => record('C2', 'seq', i + 1, o as Outcome)),
    ...['U', 'X'].map((o, i) => record('C4', 'seq', i + 1, o as Outcome)),
  ];
  const s = buildBatchReport({ ...m, modes: ['seq'] }, rs).headline[0];
  // C2: resolved, then left out before any failure: unscored. C4: fails first, its step 2 does not matter.
  assert.deepEqual([s.unscoredChains, s.perBug.successes, s.perBug.total], [1, 0, 2]);
});

test('every ChainSWE table is in the CSV files, the JSON and the HTML page', () => {
  const csv = reportCsvFiles(report, records);
  assert.match(csv['excluded.csv'], /^reason,records,example_error\nengine gone,1,Docker engine error: engine gone\n$/);
  const seqRow = csv['headline.csv'].split('\n').find((l) => l.startsWith('m1,seq,'))!;
  assert.match(seqRow, /^m1,seq,scored-until-first-unresolved,4,13,/);
  assert.ok(csv['chain_error_share.csv'].includes('m1,all,4,5,0.8,'));
  assert.ok(csv['positions_by_length.csv'].includes('m1,seq,3,3,2,1,3,'));
  assert.ok(csv['breakdowns.csv'].includes('dataset-source,SWE-rebench,3,8,m1,seq,4,8,0.5,'));
  const json = JSON.parse(JSON.stringify(report)) as { headline: { rule: string }[] };
  assert.deepEqual(
    json.headline.map((h) => h.rule),
    ['every-step-graded', 'scored-until-first-unresolved'],
  );
  const html = reportHtml(report, 't');
  assert.match(html, /ChainSWE Table 2/);
  assert.match(html, /chain-error share of downstream Seq failures/);
  assert.match(html, /chains of length 3 only/);
});
