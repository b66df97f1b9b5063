// A participant's session without VS Code, on the demo chain with real git: AH applies the agent's
// step 1 in place, the person's step 2 is timed, submitted and exported; withdrawal removes it all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { DEMO_PREDICTIONS, ROOT, demoRepo } from '../../helpers/demoRepo';
import { git } from '../../helpers/tinyChain';

const dir = mkdtempSync(join(tmpdir(), 'chainlens-study-session-'));
const file = join(dir, 'study.json');
writeFileSync(
  file,
  JSON.stringify({
    chainlensStudy: 1,
    name: 'session-test',
    tasks: [
      {
        id: 'inv',
        chain: join(ROOT, 'demo/chain.jsonl'),
        chainId: 'chainlens-demo_invoicekit_20240312_two_step',
        repo: demoRepo(),
        predictions: DEMO_PREDICTIONS,
      },
    ],
    conditions: [
      { name: 'AH', authors: ['recorded', 'human'] },
      { name: 'HH', authors: ['human', 'human'] },
    ],
    participants: ['p01', 'p02'],
    assignment: {
      kind: 'explicit',
      sessions: { p01: [{ task: 'inv', condition: 'AH' }], p02: [{ task: 'inv', condition: 'HH' }] },
    },
    consent: 'We record your code and time under a pseudonymous id.',
  }),
);
const workTree = join(dir, 'sessions', 'p01', 'inv');

test('consent is asked once: start refuses without it and shows the text, nothing is checked out', async () => {
  const r = await runCli(['study', 'start', file, '--participant', 'p01']);
  assert.equal(r.code, 2);
  assert.match(r.stdout, /pseudonymous id/);
  assert.equal(existsSync(workTree), false);
});

test('AH: the agent patch of step 1 is applied in place and the person is on step 2; the work tree holds no answers', async () => {
  const r = await runCli(['study', 'start', file, '--participant', 'p01', '--consent']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /task 1 of 1: inv \(AH\)/);
  assert.match(r.stdout, /solve step 2 \(chainlens-demo__invoicekit-102\)/);
  assert.match(git(workTree, 'log', '-1', '--format=%s'), /step 1 .* by recorded \(demo-agent\)/);
  // Seq, in place: step 2 starts where the agent's step 1 ended.
  assert.equal(git(workTree, 'status', '--porcelain'), '');
  // The study's records are in the data directory: the work tree keeps only the state pointer.
  assert.deepEqual(readdirSync(join(workTree, '.git', 'chainlens')), ['state']);
  // Starting again continues the same task (no second checkout).
  const again = await runCli(['study', 'start', file, '--participant', 'p01']);
  assert.equal(again.code, 0, again.stderr);
  assert.doesNotMatch(again.stderr, /copying the history/);
});

test('submit records the step; export has one row per step with condition, author, patch and time', async () => {
  appendFileSync(join(workTree, 'invoicekit/parse.py'), '\n# handled by the participant\n');
  const s = await runCli(['study', 'submit', file, '--participant', 'p01', '--no-grade']);
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stdout, /submitted step 2/);
  const out = join(dir, 'out');
  const e = await runCli(['study', 'export', file, '--out', out]);
  assert.equal(e.code, 0, e.stderr);
  const rows = readFileSync(join(out, 'rows.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    rows.map((r) => [r.participant, r.condition, r.step, r.author, r.applied]),
    [
      ['p01', 'AH', 1, 'recorded', true],
      ['p01', 'AH', 2, 'human', true],
    ],
  );
  assert.match(rows[1].patch, /\+# handled by the participant/);
  assert.equal(typeof rows[1].wallSeconds, 'number');
  assert.equal(rows[0].wallSeconds, null, 'no clock for the agent step');
  assert.equal(rows[1].resolved, null, 'not graded (--no-grade)');
  assert.ok(rows[1].overshootLines >= 1, 'a line gold does not touch');
  const csv = readFileSync(join(out, 'rows.csv'), 'utf8');
  assert.match(csv.split('\r\n')[0], /^study,participant,task,chain,condition,step,instanceId,author,/);
  const report = await runCli(['study', 'report', join(out, 'rows.jsonl'), '--json']);
  assert.equal(report.code, 0, report.stderr);
  assert.equal(JSON.parse(report.stdout).conditions[0].condition, 'AH');
});

test('withdraw deletes the work and records; the participant is left out of exports and cannot start again', async () => {
  const w = await runCli(['study', 'withdraw', file, '--participant', 'p01']);
  assert.equal(w.code, 0, w.stderr);
  assert.equal(existsSync(workTree), false);
  const out = join(dir, 'out2');
  await runCli(['study', 'export', file, '--out', out]);
  assert.equal(readFileSync(join(out, 'rows.jsonl'), 'utf8'), '');
  const again = await runCli(['study', 'start', file, '--participant', 'p01', '--consent']);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /withdrew/);
});
