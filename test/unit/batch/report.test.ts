// `chainlens report` figures on a fixture run directory (test/fixtures/batch/run), against values
// computed by hand: two chains (A: 3 steps, B: orders 10-11), one source, Oracle and Seq.
//   A oracle R R U | A seq R U(P2P broken) U | B oracle R R | B seq U, infra failure
// Wilson 95% bounds from the textbook formula with z = 1.959963984540054 (computed separately).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  buildBatchReport,
  drillKeys,
  reportCsvFiles,
  reportHtml,
  reportText,
  type GroupReport,
} from '../../../src/core/batch';
import { BatchRunDir } from '../../../src/infra/batch/runDir';

const dir = new BatchRunDir(join(__dirname, '../../fixtures/batch/run'));
const manifest = dir.readManifest();
const records = dir.readRecords();
const report = buildBatchReport(manifest, records);
const group = (mode: string): GroupReport => report.groups.find((g) => g.mode === mode)!;
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

test('resolve rates per mode leave infrastructure failures out, with Wilson 95% intervals', () => {
  assert.equal(records.length, 10);
  const o = group('oracle');
  assert.deepEqual([o.steps.successes, o.steps.total], [4, 5]);
  close(o.steps.low, 0.37553462976252533);
  close(o.steps.high, 0.9637758913675698);
  const s = group('seq');
  assert.deepEqual([s.steps.successes, s.steps.total, s.infraFailures], [1, 4, 1]);
  close(s.steps.low, 0.04558726080970055);
  close(s.steps.high, 0.6993581574175981);
});

test('full-chain success counts only chains with a verdict at every step', () => {
  assert.deepEqual([group('oracle').fullChain.successes, group('oracle').fullChain.total], [1, 2]);
  close(group('oracle').fullChain.low, 0.09453120573423074);
  // B's Seq step 11 failed in the environment: B is not complete under Seq, A is, unresolved.
  assert.deepEqual([group('seq').fullChain.successes, group('seq').fullChain.total], [0, 1]);
  close(group('seq').fullChain.high, 0.7934506856227626);
});

test('resolve rate by chain position uses positions, not orders (B is 10, 11)', () => {
  const pos = (mode: string) => group(mode).byPosition.map((p) => [p.position, p.successes, p.total]);
  assert.deepEqual(pos('oracle'), [
    [1, 2, 2],
    [2, 2, 2],
    [3, 0, 1],
  ]);
  assert.deepEqual(pos('seq'), [
    [1, 1, 2],
    [2, 0, 1],
    [3, 0, 1],
  ]);
  close(group('oracle').byPosition[0].low, 0.34238022750665303);
});

test('the Oracle-to-Seq drop pairs the chains judged in both modes at each position', () => {
  assert.deepEqual(
    report.drops.map((d) => [d.position, d.pairs, d.oracle.successes, d.seq.successes, d.drop]),
    [
      [1, 2, 2, 1, 0.5],
      [2, 1, 1, 0, 1],
      [3, 1, 0, 0, 0],
    ],
  );
});

test('chain errors: position 2 or later only, never position 1, and not an infrastructure failure', () => {
  // B position 1 is resolved under Oracle and not under Seq: solver variance, not a chain error.
  assert.deepEqual(
    report.chainErrors.map((e) => [e.chainId, e.position, e.order, e.fingerprint]),
    [['A', 2, 2, 'broke-working-code']],
  );
});

test("a chain error is traced to the earlier step's symbol-level overshoot in a file it touches", () => {
  // A step 1 overshot a.py helper (gold of step 2 changes that very symbol); its undershoot in
  // b.py is in no file step 2 touches.
  assert.deepEqual(report.chainErrors[0].trace, [
    { position: 1, order: 1, kind: 'overshoot', file: 'a.py', symbol: 'helper', sameSymbol: true },
  ]);
});

test('failure fingerprints of unresolved steps per mode', () => {
  assert.deepEqual(group('seq').fingerprints, { 'broke-working-code': 1, 'left-bug-unfixed': 2, 'no-usable-patch': 0 });
  assert.deepEqual(group('oracle').fingerprints, {
    'broke-working-code': 0,
    'left-bug-unfixed': 1,
    'no-usable-patch': 0,
  });
});

test('costs per chain and per source from the records that carry one', () => {
  assert.deepEqual(
    report.costs.map((c) => [c.source, c.chainId, c.steps, c.cost]),
    [
      ['m1', null, 3, 1],
      ['m1', 'A', 3, 1],
    ],
  );
});

test('every number drills down to the records behind it', () => {
  const keys = drillKeys(report);
  assert.deepEqual(keys['position:m1:seq:1'], ['A/m1/seq/step-1', 'B/m1/seq/step-10']);
  assert.deepEqual(keys['chain-error:m1:A:2'], ['A/m1/oracle/step-2', 'A/m1/seq/step-2']);
  const html = reportHtml(report, 'fixture');
  assert.match(html, /data-key="position:m1:seq:1"/);
  assert.match(html, /<svg/);
});

test('CSV tables hold the same figures', () => {
  const csv = reportCsvFiles(report, records);
  assert.equal(csv['positions.csv'].split('\n')[0], 'source,mode,position,resolved,judged,rate,low,high');
  assert.ok(csv['positions.csv'].includes('m1,seq,1,1,2,0.5,'));
  assert.equal(
    csv['chain_errors.csv'].trim().split('\n')[1],
    'm1,A,2,2,o__r-2,broke-working-code,overshoot,trace,,,1:overshoot:a.py::helper*',
  );
  assert.equal(csv['steps.csv'].trim().split('\n').length, 11);
});

test('the text report names the chain error and its trace', () => {
  const text = reportText(report);
  assert.match(text, /chain errors .*: 1/);
  assert.match(text, /m1 +A +position 2 \(o__r-2\): broke-working-code/);
  assert.match(text, /step 1 overshoot a\.py helper +<- a symbol this step must change/);
});
