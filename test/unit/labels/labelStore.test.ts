import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabelStore, labelsFile } from '../../../src/infra/labels/labelStore';
import { readLabelFile } from '../../../src/infra/labels/labelFile';
import { labelForDigit } from '../../../src/vscode/labels/labelDigits';
import type { DriftLabelRecord } from '../../../src/protocol/labels';

const rec = (over: Partial<DriftLabelRecord> = {}): DriftLabelRecord => ({
  chain: 'c',
  step: 1,
  instance: 'i-1',
  file: 'pkg/a.py',
  symbol: 'parse_amount',
  range: { startLine: 3, endLine: 9 },
  label: 'INPUT GATING',
  rationale: 'rejects more input than gold',
  labeller: 'ada',
  source: 'human',
  time: '2026-01-02T03:04:05.000Z',
  ...over,
});

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labels-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('drift label JSONL store next to the run', () => {
  it('lives at <state folder>/runs/<run>.labels.jsonl and appends one line per label', () =>
    withDir(async (stateRoot) => {
      const store = new LabelStore(labelsFile(stateRoot, 'run-1'));
      assert.equal(store.path, join(stateRoot, 'runs', 'run-1.labels.jsonl'));
      assert.deepEqual(await store.load(), []);
      store.add(rec());
      store.add(rec({ symbol: 'other', time: '2026-01-02T03:05:00.000Z' }));
      const lines = readFileSync(store.path, 'utf8').split('\n');
      assert.equal(lines.length, 3);
      assert.equal(lines[2], '');
      assert.deepEqual(
        (await store.load()).map((r) => r.symbol),
        ['parse_amount', 'other'],
      );
    }));

  it('edits and removes a label by rewriting the file, leaving no temporary file', () =>
    withDir(async (stateRoot) => {
      const store = new LabelStore(labelsFile(stateRoot, 'r'));
      const a = rec();
      const b = rec({ symbol: 'b', time: '2026-01-02T03:05:00.000Z' });
      store.add(a);
      store.add(b);
      await store.replace(a, { ...a, label: 'SILENT FALLBACK', time: '2026-01-03T00:00:00.000Z' });
      assert.deepEqual(
        (await store.load()).map((r) => r.label),
        ['SILENT FALLBACK', 'INPUT GATING'],
      );
      await store.remove(b);
      assert.deepEqual(
        (await store.load()).map((r) => r.symbol),
        ['parse_amount'],
      );
      assert.deepEqual(readdirSync(join(stateRoot, 'runs')), ['r.labels.jsonl']);
      await assert.rejects(store.remove(b), /no longer there/);
    }));

  it('refuses an invalid record without writing, and names file and line of a bad line on load', () =>
    withDir(async (stateRoot) => {
      const store = new LabelStore(labelsFile(stateRoot, 'r'));
      store.add(rec());
      assert.throws(() => store.add(rec({ label: 'BUG' as never })));
      assert.equal((await store.load()).length, 1);
      writeFileSync(store.path, `${JSON.stringify(rec())}\n{"chain":"c"}\n`);
      await assert.rejects(
        store.load(),
        (e: Error & { details?: string[] }) =>
          /line 2/.test((e.details ?? []).join('\n')) && e.message.includes(store.path),
      );
    }));

  it('maps digit keys 1-9 and 0 to the ten labels in REFERENCE order', () => {
    assert.equal(labelForDigit('1'), 'EQUIVALENT');
    assert.equal(labelForDigit('4'), 'INPUT GATING');
    assert.equal(labelForDigit('0'), 'INCOMPLETE');
    assert.equal(labelForDigit('x'), undefined);
    assert.equal(labelForDigit('12'), undefined);
  });
});

describe('drift label files: one reader for both front ends', () => {
  it('keeps the labels of two runs of one instance apart when editing one of them', () =>
    withDir(async (stateRoot) => {
      const store = new LabelStore(labelsFile(stateRoot, 'r'));
      const first = rec({ run: 'run-a' });
      const second = rec({ run: 'run-b' });
      store.add(first);
      store.add(second);
      await store.replace(second, { ...second, label: 'ALGORITHM' });
      assert.deepEqual(
        (await store.load()).map((r) => `${r.run} ${r.label}`),
        ['run-a INPUT GATING', 'run-b ALGORITHM'],
      );
    }));

  it('reads a missing run file as no labels, but names a missing file a person gave', () =>
    withDir(async (dir) => {
      assert.deepEqual(await readLabelFile(join(dir, 'none.jsonl'), { missingIsEmpty: true }), []);
      await assert.rejects(
        readLabelFile(join(dir, 'none.jsonl'), { shownAs: 'none.jsonl' }),
        /^UserError: none\.jsonl: cannot read the file \(no such file\)$/,
      );
      writeFileSync(
        join(dir, 'bom.jsonl'),
        `\uFEFF${JSON.stringify(rec())}\r\n\r\n${JSON.stringify(rec({ symbol: 'b' }))}`,
      );
      assert.deepEqual(
        (await readLabelFile(join(dir, 'bom.jsonl'))).map((r) => r.symbol),
        ['parse_amount', 'b'],
      );
    }));
});
