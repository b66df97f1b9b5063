import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BatchRunDir } from '../../../src/infra/batch/runDir';
import { UserError } from '../../../src/core/util/errors';

const fixture = join(__dirname, '../../fixtures/batch/run');

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-batch-rundir-'));
  cpSync(fixture, dir, { recursive: true });
  return dir;
}

test('a run directory written by another version is refused, naming the file and field', () => {
  const dir = copy();
  try {
    const path = join(dir, 'manifest.json');
    const m = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...m, version: 99 }));
    assert.throws(
      () => new BatchRunDir(dir).readManifest(),
      (e: unknown) =>
        e instanceof UserError && /manifest\.json: \$\.version: .*another ChainLens version/.test(e.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a directory that is no batch is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-batch-rundir-'));
  try {
    assert.throws(() => new BatchRunDir(dir).readManifest(), /is not a ChainLens batch run directory/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a torn write (temp file of a killed process) is no record and is cleared on resume', () => {
  const dir = copy();
  try {
    const torn = join(dir, 'records', 'A', 'm1', 'seq', '.step-9.json.4242.1700000000000.tmp');
    writeFileSync(torn, '{"version": 1, "chain');
    const run = new BatchRunDir(dir);
    assert.equal(run.readRecords().length, 10);
    run.clearLeftovers();
    assert.deepEqual(readdirSync(join(dir, 'records', 'A', 'm1', 'seq')).sort(), [
      'step-1.json',
      'step-2.json',
      'step-3.json',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a record that does not parse is named with its path and field', () => {
  const dir = copy();
  try {
    const path = join(dir, 'records', 'B', 'm1', 'seq', 'step-10.json');
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), resolved: 'yes' }));
    assert.throws(
      () => new BatchRunDir(dir).readRecords(),
      (e: unknown) =>
        e instanceof UserError && e.details.some((d) => d.includes('step-10.json') && d.includes('resolved')),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one writer per run directory: a second lock is refused, naming the holder', () => {
  const dir = copy();
  try {
    const run = new BatchRunDir(dir);
    const held = run.lock();
    assert.throws(() => new BatchRunDir(dir).lock(), /batch run directory/);
    held.release();
    new BatchRunDir(dir).lock().release();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
