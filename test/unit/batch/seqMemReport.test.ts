// A batch of an agent source in Seq and Seq+Mem (docs/reference/agents.md): the report scores
// Seq+Mem by Seq's rule (ChainSWE §4.3: Seq+Mem is Seq with the conversation kept) and gives the
// Seq-to-Seq+Mem drop at each position, in text, JSON and CSV. Built from the fixture run's Seq
// records, copied as Seq+Mem with chain A's step 2 resolved.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildBatchReport, reportCsvFiles, reportText } from '../../../src/core/batch';
import { BatchRunDir } from '../../../src/infra/batch/runDir';
import type { BatchManifest, BatchRecord } from '../../../src/protocol/batch';

const dir = new BatchRunDir(join(__dirname, '../../fixtures/batch/run'));
const fixture = dir.readManifest();
const seq = dir.readRecords().filter((r) => r.mode === 'seq');
const manifest: BatchManifest = { ...fixture, modes: ['seq', 'seq+mem'] };
const mem: BatchRecord[] = seq.map((r) => ({
  ...r,
  mode: 'seq+mem',
  resolved: r.resolved || (r.position === 2 && !r.infra_failure),
  status: r.resolved || (r.position === 2 && !r.infra_failure) ? 'resolved' : r.status,
}));
const report = buildBatchReport(manifest, [...seq, ...mem]);

test('seq+mem rows of Table 2 use the Seq scoring rule, compared with nothing when there is no Oracle', () => {
  const row = report.headline.find((h) => h.mode === 'seq+mem')!;
  assert.equal(row.rule, 'scored-until-first-unresolved');
  assert.equal(report.headline.find((h) => h.mode === 'seq')!.rule, 'scored-until-first-unresolved');
});

test('the Seq-to-Seq+Mem drop by position, in text, JSON and CSV', () => {
  const at2 = report.memoryDrops.find((d) => d.position === 2)!;
  // Chain A's step 2 only (B's position 2 has no Seq verdict): Seq 0/1, Seq+Mem 1/1.
  assert.deepEqual([at2.pairs, at2.oracle.successes, at2.seq.successes, at2.drop], [1, 0, 1, -1]);
  assert.equal(report.drops.length, 0, 'no Oracle, no Oracle-to-Seq drop');
  assert.match(reportText(report), /Seq-to-Seq\+Mem drop by position/);
  assert.match(
    reportCsvFiles(report, [...seq, ...mem])['memory_drops.csv'],
    /^source,position,pairs,seq_resolved,seq_mem_resolved/,
  );
});
