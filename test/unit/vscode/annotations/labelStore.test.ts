import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabelStore, labelsFile } from '../../../../src/vscode/labels/labelStore';
import { labelForDigit } from '../../../../src/vscode/labels/labelDigits';
import type { DriftLabelRecord } from '../../../../src/protocol/labels';

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

function withDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'labels-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('drift label JSONL store next to the run', () => {
  it('lives at <state folder>/runs/<run>.labels.jsonl and appends one line per label', () =>
    withDir((stateRoot) => {
      const store = new LabelStore(labelsFile(stateRoot, 'run-1'));
      assert.equal(store.path, join(stateRoot, 'runs', 'run-1.labels.jsonl'));
      assert.deepEqual(store.load(), []);
      store.add(rec());
      store.add(rec({ symbol: 'other', time: '2026-01-02T03:05:00.000Z' }));
      const lines = readFileSync(store.path, 'utf8').split('\n');
      assert.equal(lines.length, 3);
      assert.equal(lines[2], '');
      assert.deepEqual(
        store.load().map((r) => r.symbol),
        ['parse_amount', 'other'],
      );
    }));

  it('edits and removes a label by rewriting the file, leaving no temporary file', () =>
    withDir((stateRoot) => {
      const store = new LabelStore(labelsFile(stateRoot, 'r'));
      const a = rec();
      const b = rec({ symbol: 'b', time: '2026-01-02T03:05:00.000Z' });
      store.add(a);
      store.add(b);
      store.replace(a, { ...a, label: 'SILENT FALLBACK', time: '2026-01-03T00:00:00.000Z' });
      assert.deepEqual(
        store.load().map((r) => r.label),
        ['SILENT FALLBACK', 'INPUT GATING'],
      );
      store.remove(b);
      assert.deepEqual(
        store.load().map((r) => r.symbol),
        ['parse_amount'],
      );
      assert.deepEqual(readdirSync(join(stateRoot, 'runs')), ['r.labels.jsonl']);
      assert.throws(() => store.remove(b), /no longer there/);
    }));

  it('refuses an invalid record without writing, and names file and line of a bad line on load', () =>
    withDir((stateRoot) => {
      const store = new LabelStore(labelsFile(stateRoot, 'r'));
      store.add(rec());
      assert.throws(() => store.add(rec({ label: 'BUG' as never })));
      assert.equal(store.load().length, 1);
      writeFileSync(store.path, `${JSON.stringify(rec())}\n{"chain":"c"}\n`);
      assert.throws(
        () => store.load(),
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
