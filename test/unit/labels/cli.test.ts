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

const runLine = (run: string, symbol: string, label: string, labeller: string, step = 1) =>
  JSON.stringify({ ...JSON.parse(line(symbol, label, labeller)), run, step });

test('labels agree: a shared file of two labellers is refused naming them; --labeller-a/-b pick one each', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'labels-'));
  writeFileSync(
    join(dir, 'shared.jsonl'),
    [
      runLine('r1', 'f', 'INPUT GATING', 'ann'),
      runLine('r1', 'g', 'EQUIVALENT', 'ann'),
      runLine('r1', 'f', 'INPUT GATING', 'bob'),
      runLine('r1', 'g', 'STYLE', 'bob'),
    ].join('\n') + '\n',
  );
  const mixed = await cli(['labels', 'agree', 'shared.jsonl', 'shared.jsonl'], dir);
  assert.equal(mixed.code, 1);
  assert.equal(mixed.out, '');
  assert.match(
    mixed.err,
    /shared\.jsonl: holds the labels of 2 labellers \(ann \(2\), bob \(2\)\); .*pick one with --labeller-a <name>/,
  );
  const same = await cli(
    ['labels', 'agree', 'shared.jsonl', 'shared.jsonl', '--labeller-a', 'ann', '--labeller-b', 'ann'],
    dir,
  );
  assert.equal(same.code, 1);
  assert.match(same.err, /both sides are the labels of 'ann'; agreement needs two labellers/);
  const nobody = await cli(['labels', 'agree', 'shared.jsonl', 'shared.jsonl', '--labeller-a', 'cy'], dir);
  assert.equal(nobody.code, 1);
  assert.match(nobody.err, /shared\.jsonl: no labels by 'cy' \(labellers: ann \(2\), bob \(2\)\)/);
  const r = await cli(
    ['labels', 'agree', 'shared.jsonl', 'shared.jsonl', '--labeller-a', 'ann', '--labeller-b', 'bob'],
    dir,
  );
  assert.equal(r.code, 0, r.err);
  // By hand: pairs (IG, IG) and (EQ, ST); observed 1/2, chance 1/2 * 1/2 = 1/4, kappa (1/2 - 1/4) / (3/4).
  assert.match(r.out, /^Cohen's kappa: 0\.333  \(n = 2 targets/);
  assert.match(r.out, /confusion: rows shared\.jsonl \(ann\), columns shared\.jsonl \(bob\)/);
  assert.match(
    r.out,
    /paired ann \(human, 2 records in shared\.jsonl\) with bob \(human, 2 records in shared\.jsonl\) by run, step, file and symbol/,
  );
});

test('labels agree: labels of two runs of one instance, and of two steps, are separate targets', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'labels-'));
  writeFileSync(
    join(dir, 'a.jsonl'),
    [
      runLine('r1', 'f', 'INPUT GATING', 'ann'),
      runLine('r2', 'f', 'ALGORITHM', 'ann'),
      runLine('r1', 'f', 'STYLE', 'ann', 2),
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'b.jsonl'),
    [
      runLine('r1', 'f', 'INPUT GATING', 'bob'),
      runLine('r2', 'f', 'ALGORITHM', 'bob'),
      runLine('r1', 'f', 'STYLE', 'bob', 2),
    ].join('\n'),
  );
  const j = JSON.parse((await cli(['labels', 'agree', 'a.jsonl', 'b.jsonl', '--json'], dir)).out);
  assert.equal(j.n, 3);
  assert.equal(j.kappa, 1);
  assert.deepEqual(
    j.pairs.map((p: { target: string }) => p.target),
    ['run r1 step 1: i a.py f', 'run r2 step 1: i a.py f', 'run r1 step 2: i a.py f'],
  );
});
