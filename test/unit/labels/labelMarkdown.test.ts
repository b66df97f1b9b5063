import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelHeadline } from '../../../src/vscode/labels/labelMarkdown';
import type { DriftLabelRecord } from '../../../src/protocol/labels';

const rec = (symbol: string | null): DriftLabelRecord => ({
  chain: 'c',
  run: 'r',
  step: 2,
  instance: 'i',
  file: 'src/marshmallow/fields.py',
  symbol,
  range: { startLine: 3, endLine: 9 },
  label: 'SILENT FALLBACK',
  rationale: '',
  labeller: 'L1',
  source: 'human',
  time: '2026-01-02T03:04:05.000Z',
});

test('a label comment shows `__init__` as written, not as bold "init" (Markdown escaped)', () => {
  const md = labelHeadline(rec('TimeDelta.__init__'));
  assert.equal(md, '**SILENT FALLBACK** · B divergent · step 2 · TimeDelta\\.\\_\\_init\\_\\_');
  assert.doesNotMatch(md.replace(/^\*\*[^*]+\*\*/, ''), /(^|[^\\])[_*]/);
  assert.equal(labelHeadline(rec(null)).endsWith('lines 3\\-9'), true);
});
