import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';

async function cli(args: string[], cwd: string) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += t + '\n'), err: (t) => (err += t + '\n'), cwd });
  return { code, out, err };
}

const line = (symbol: string, label: string, labeller: string) =>
  JSON.stringify({
    chain: 'c',
    step: 1,
    instance: 'i',
    file: 'a.py',
    symbol,
    range: { startLine: 1, endLine: 3 },
    label,
    rationale: 'r',
    labeller,
    source: 'human',
    time: '2025-03-01T10:00:00+01:00',
  });

test('labels agree: prints kappa, n and the confusion table; --json gives the numbers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'labels-'));
  writeFileSync(
    join(dir, 'a.jsonl'),
    [line('f', 'INPUT GATING', 'ann'), line('g', 'EQUIVALENT', 'ann'), line('h', 'RETURN SHAPE', 'ann')].join('\n') +
      '\n',
  );
  writeFileSync(
    join(dir, 'b.jsonl'),
    [line('f', 'INPUT GATING', 'bob'), line('g', 'EQUIVALENT', 'bob'), line('h', 'SILENT FALLBACK', 'bob')].join(
      '\r\n',
    ),
  );
  const r = await cli(['labels', 'agree', 'a.jsonl', 'b.jsonl'], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Cohen's kappa: 0\.571  \(n = 3 targets/);
  assert.match(r.out, /confusion: rows a\.jsonl, columns b\.jsonl/);
  const j = await cli(['labels', 'agree', 'a.jsonl', 'b.jsonl', '--json'], dir);
  const parsed = JSON.parse(j.out);
  assert.equal(parsed.n, 3);
  assert.equal(parsed.confusion['RETURN SHAPE']['SILENT FALLBACK'], 1);
});

test('labels agree: a bad line is an error naming file, line and field (exit 1)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'labels-'));
  writeFileSync(join(dir, 'a.jsonl'), line('f', 'INPUT GATING', 'ann') + '\n' + line('g', 'DRIFTY', 'ann') + '\n');
  writeFileSync(join(dir, 'b.jsonl'), line('f', 'INPUT GATING', 'bob') + '\n');
  const r = await cli(['labels', 'agree', 'a.jsonl', 'b.jsonl'], dir);
  assert.equal(r.code, 1);
  assert.match(r.err, /a\.jsonl line 2: label: /);
  const missing = await cli(['labels', 'agree', 'nope.jsonl', 'b.jsonl'], dir);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /nope\.jsonl: cannot read the file \(no such file\)/);
  const usage = await cli(['labels', 'agree', 'a.jsonl'], dir);
  assert.equal(usage.code, 2);
});
