// Drift suggestions on real agent patches: SWE-agent's submission for marshmallow-1867, read from
// its trajectory (test/fixtures/formats, the real file). Its fix rounds instead of flooring; a
// number converted with int() is not a silent fallback, so no input/error contract drift.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePatch } from '../../../src/core/patch/parse';
import { formatFile } from '../../helpers/formats';
import { analyzeOne, labelsOf } from './helpers';

const PATH = 'src/marshmallow/fields.py';

/** The submission's hunk as a file holding the function it changes: its pre- and post-image. */
function submissionImages(): { before: string; after: string } {
  const traj = JSON.parse(
    readFileSync(formatFile('sweagent_v1_function_calling__marshmallow-code__marshmallow-1867.traj'), 'utf8'),
  ) as { info: { submission: string } };
  const [hunk] = parsePatch(traj.info.submission, 'submission').files[0].hunks;
  // the hunk starts inside TimeDelta._serialize: its header line and signature are the hunk's section
  const head = ['class TimeDelta(Field):', '    def _serialize(self, value, attr, obj, **kwargs):'];
  const side = (keep: 'del' | 'add') =>
    [...head, ...hunk.lines.filter((l) => l.kind === 'context' || l.kind === keep).map((l) => l.text)].join('\n') +
    '\n';
  return { before: side('del'), after: side('add') };
}

test('SWE-agent on marshmallow-1867: int(round(a / b)) against int(a / b) is no SILENT FALLBACK', async () => {
  const { before, after } = submissionImages();
  assert.match(after, /return int\(round\(value\.total_seconds\(\) \/ base_unit\.total_seconds\(\)\)\)/);
  // against a gold that computes the same quotient another way (integer division, no int())
  const gold = before.replace(
    'return int(value.total_seconds() / base_unit.total_seconds())',
    'return (value // base_unit)',
  );
  for (const g of [before, gold]) {
    const a = await analyzeOne(PATH, before, after, g);
    const labels = labelsOf(a, 'TimeDelta._serialize');
    assert.ok(!labels.includes('SILENT FALLBACK'), labels.join(', '));
    assert.ok(!a.drift.some((d) => d.iec), JSON.stringify(a.drift.map((d) => [d.label, d.reason])));
  }
});

test('a coercion of an input is still a SILENT FALLBACK: int(text) where gold raises', async () => {
  const base = 'def parse(text):\n    return text\n';
  const a = await analyzeOne(
    'p.py',
    base,
    'def parse(text):\n    return int(text)\n',
    'def parse(text):\n    if not text.isdigit():\n        raise ValueError(text)\n    return text\n',
  );
  assert.ok(labelsOf(a, 'parse').includes('SILENT FALLBACK'), labelsOf(a).join(', '));
});
