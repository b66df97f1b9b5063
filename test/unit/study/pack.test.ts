// A participant's pack: nothing answer-bearing inside, it runs a session on its own, and the one
// results file it writes merges into the researcher's export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { DEMO_PREDICTIONS, ROOT, demoRepo } from '../../helpers/demoRepo';
import { git } from '../../helpers/tinyChain';
import { hunkScope } from '../../../src/core/study/hunkScope';

const dir = mkdtempSync(join(tmpdir(), 'chainlens-study-pack-'));
const file = join(dir, 'study.json');
const chainJsonl = join(ROOT, 'demo/chain.jsonl');
writeFileSync(
  file,
  JSON.stringify({
    chainlensStudy: 1,
    name: 'pack-test',
    tasks: [
      {
        id: 'inv',
        chain: chainJsonl,
        chainId: 'chainlens-demo_invoicekit_20240312_two_step',
        repo: demoRepo(),
        predictions: DEMO_PREDICTIONS,
      },
    ],
    conditions: [
      { name: 'AH', authors: ['recorded', 'human'] },
      { name: 'GH', authors: ['gold', 'human'] },
    ],
    participants: ['p01', 'p02'],
    assignment: {
      kind: 'explicit',
      sessions: { p01: [{ task: 'inv', condition: 'AH' }], p02: [{ task: 'inv', condition: 'GH' }] },
    },
  }),
);
const out = join(dir, 'packs');
const goldOf = (step: number) =>
  (
    JSON.parse(readFileSync(chainJsonl, 'utf8').split('\n')[1]) as {
      bug_fixes: { patch: string; test_patch: string }[];
    }
  ).bug_fixes[step - 1];

test('a pack per participant, with no gold, hidden tests or later history inside', async () => {
  const r = await runCli(['study', 'pack', file, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['p01', 'p02']);
  const p01 = join(out, 'p01');
  assert.ok(existsSync(join(p01, '.devcontainer', 'devcontainer.json')));
  assert.ok(existsSync(join(p01, '.vscode', 'settings.json')));
  const text = readFileSync(join(p01, 'chains', 'inv.json'), 'utf8');
  const chain = JSON.parse(text) as { bug_fixes: { patch: string; test_patch: string; FAIL_TO_PASS: string[] }[] };
  for (const step of chain.bug_fixes) {
    assert.equal(step.patch, '');
    assert.equal(step.test_patch, '');
    assert.deepEqual(step.FAIL_TO_PASS, []);
  }
  assert.ok(!text.includes(goldOf(2).patch.slice(0, 200)));
  // Only the agent patch of the step the agent authors (step 1), not its step-2 solution.
  const predictions = readFileSync(join(p01, 'predictions', 'inv.jsonl'), 'utf8')
    .trim()
    .split('\n');
  assert.deepEqual(
    predictions.map((l) => JSON.parse(l).instance_id),
    ['chainlens-demo__invoicekit-101'],
  );
  // The repository: the base commit's history and nothing later.
  assert.equal(
    git(join(p01, 'repos', 'inv'), 'rev-list', '--all')
      .trim()
      .split('\n').length,
    2,
  );
  // p02 starts from gold step 1 by design: that gold patch is in its pack, step 2's is not.
  const p02 = JSON.parse(readFileSync(join(out, 'p02', 'chains', 'inv.json'), 'utf8')) as {
    bug_fixes: { patch: string }[];
  };
  assert.equal(p02.bug_fixes[0].patch, goldOf(1).patch);
  assert.equal(p02.bug_fixes[1].patch, '');
  const packed = JSON.parse(readFileSync(join(p01, 'study.json'), 'utf8'));
  assert.deepEqual(packed.participants, ['p01']);
  assert.deepEqual(packed.pack, { resultsDir: 'results' });
  // Packing into a folder that is not empty is refused.
  assert.equal((await runCli(['study', 'pack', file, '--out', out])).code, 2);
});

test("the pack runs a session on its own; its results file merges into the researcher's export", async () => {
  const packStudy = join(out, 'p01', 'study.json');
  // The participant's own machine: another data directory than the researcher's.
  const researcherData = process.env.CHAINLENS_DATA;
  process.env.CHAINLENS_DATA = mkdtempSync(join(tmpdir(), 'chainlens-participant-data-'));
  assert.equal((await runCli(['study', 'validate', packStudy])).code, 0);
  const s = await runCli(['study', 'start', packStudy, '--participant', 'p01']);
  assert.equal(s.code, 0, s.stderr);
  const workTree = join(out, 'p01', 'sessions', 'p01', 'inv');
  appendFileSync(join(workTree, 'invoicekit', 'parse.py'), '\n# p01 was here\n');
  const done = await runCli(['study', 'submit', packStudy, '--participant', 'p01']);
  assert.equal(done.code, 0, done.stderr);
  assert.doesNotMatch(done.stdout, /resolved|unresolved/, 'not graded in the pack');
  const results = join(out, 'p01', 'results', 'p01.results.json');
  assert.match(done.stdout, /p01\.results\.json/);
  process.env.CHAINLENS_DATA = researcherData;
  const exported = join(dir, 'export');
  const e = await runCli(['study', 'export', file, '--out', exported, '--results', results]);
  assert.equal(e.code, 0, e.stderr);
  const rows = readFileSync(join(exported, 'rows.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    rows.map((r) => [r.participant, r.condition, r.step, r.author]),
    [
      ['p01', 'AH', 1, 'recorded'],
      ['p01', 'AH', 2, 'human'],
    ],
  );
  assert.match(rows[1].patch, /p01 was here/);
  // The pack's chain has no gold: its machine measures nothing, the researcher's export does.
  const sent = JSON.parse(readFileSync(results, 'utf8')) as { rows: { overshootLines: number | null }[] };
  assert.equal(sent.rows[1].overshootLines, null, 'no overshoot against an empty gold');
  const local = hunkScope(rows[1].patch, goldOf(2).patch);
  assert.equal(rows[1].overshootLines, local.overshootLines, 'measured against the real gold at export');
  assert.equal(rows[1].undershootLines, local.undershootLines);
  // A results file of another study is refused, naming the field.
  writeFileSync(
    join(dir, 'other.json'),
    JSON.stringify({ ...JSON.parse(readFileSync(results, 'utf8')), study: 'other' }),
  );
  const bad = await runCli(['study', 'export', file, '--out', exported, '--results', join(dir, 'other.json')]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /\$\.study: expected 'pack-test'/);
});

test("a pack tried on the researcher's machine runs its own session, apart from the researcher's", async () => {
  // The researcher's own session of p01 (same study name, same data directory) is done already.
  const mine = await runCli(['study', 'start', file, '--participant', 'p01']);
  assert.equal(mine.code, 0, mine.stderr);
  appendFileSync(join(dir, 'sessions', 'p01', 'inv', 'invoicekit', 'parse.py'), '\n# researcher\n');
  assert.equal((await runCli(['study', 'submit', file, '--participant', 'p01', '--no-grade'])).code, 0);
  const tryOut = join(dir, 'try');
  assert.equal((await runCli(['study', 'pack', file, '--out', tryOut, '--participant', 'p01'])).code, 0);
  const tried = await runCli(['study', 'start', join(tryOut, 'p01', 'study.json'), '--participant', 'p01']);
  assert.equal(tried.code, 0, tried.stderr);
  assert.doesNotMatch(tried.stdout, /done every assigned task/);
  assert.match(tried.stdout, new RegExp(`task 1 of 1: inv \\(AH\\) in ${join(tryOut, 'p01', 'sessions')}`));
  // and the researcher's export still has the researcher's own rows of p01 only
  const exported = join(dir, 'export-try');
  assert.equal((await runCli(['study', 'export', file, '--out', exported])).code, 0);
  assert.match(readFileSync(join(exported, 'rows.jsonl'), 'utf8'), /# researcher/);
});
