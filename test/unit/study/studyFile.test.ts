// Bad study files (issue bar): each problem is named with the file and JSON path, and nothing is
// started: no session, no work tree, no state folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { testDataDir } from '../../helpers/dataDir';
import { DEMO_PREDICTIONS, ROOT, demoRepo } from '../../helpers/demoRepo';

const DEMO_JSONL = join(ROOT, 'demo/chain.jsonl');
const TWO_STEP = 'chainlens-demo_invoicekit_20240312_two_step';

function studyFile(overrides: Record<string, unknown>): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-study-file-'));
  const study = {
    chainlensStudy: 1,
    name: 'bad-input',
    tasks: [
      { id: 't1', chain: DEMO_JSONL, chainId: TWO_STEP, repo: demoRepo(), predictions: DEMO_PREDICTIONS },
      { id: 't2', chain: DEMO_JSONL, chainId: TWO_STEP, repo: demoRepo(), predictions: DEMO_PREDICTIONS },
    ],
    conditions: [
      { name: 'AH', authors: ['recorded', 'human'] },
      { name: 'HH', authors: ['human', 'human'] },
    ],
    participants: ['p01', 'p02'],
    assignment: { kind: 'generated', seed: 1 },
    ...overrides,
  };
  const file = join(dir, 'study.json');
  writeFileSync(file, JSON.stringify(study, null, 2));
  return { file, dir };
}

async function refused(overrides: Record<string, unknown>, ...expected: RegExp[]): Promise<void> {
  const { file, dir } = studyFile(overrides);
  const before = existsSync(join(testDataDir(), 'studies')) ? readdirSync(join(testDataDir(), 'studies')) : [];
  for (const verb of ['validate', 'start']) {
    const args = ['study', verb, file, ...(verb === 'start' ? ['--participant', 'p01'] : [])];
    const r = await runCli(args);
    assert.equal(r.code, 1, `${verb}: ${r.stderr}`);
    for (const e of expected) assert.match(r.stderr, e, `${verb}: ${r.stderr}`);
    assert.ok(r.stderr.includes(file), 'names the file');
  }
  assert.deepEqual(readdirSync(dir), ['study.json'], 'no work folder was made');
  const after = existsSync(join(testDataDir(), 'studies')) ? readdirSync(join(testDataDir(), 'studies')) : [];
  assert.deepEqual(after, before, 'no session was recorded');
}

test('the valid base file passes (so each refusal below is about its one change)', async () => {
  const r = await runCli(['study', 'validate', studyFile({}).file]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /valid study 'bad-input'/);
  assert.match(r.stdout, /p01: t\d \((AH|HH)\), t\d \((AH|HH)\)/);
});

test('an unknown task in the assignment is refused, naming the JSON path', async () => {
  await refused(
    {
      assignment: {
        kind: 'explicit',
        sessions: { p01: [{ task: 'nope', condition: 'AH' }], p02: [{ task: 't1', condition: 'HH' }] },
      },
    },
    /\$\.assignment\.sessions\.p01\[0\]\.task: unknown task 'nope'/,
  );
});

test('a participant assigned the same task twice is refused', async () => {
  await refused(
    {
      assignment: {
        kind: 'explicit',
        sessions: {
          p01: [
            { task: 't1', condition: 'AH' },
            { task: 't1', condition: 'HH' },
          ],
          p02: [{ task: 't2', condition: 'HH' }],
        },
      },
    },
    /\$\.assignment\.sessions\.p01\[1\]\.task: 'p01' is assigned task 't1' twice/,
  );
});

test('an unknown condition is refused', async () => {
  await refused(
    {
      assignment: {
        kind: 'explicit',
        sessions: { p01: [{ task: 't1', condition: 'XY' }], p02: [{ task: 't2', condition: 'HH' }] },
      },
    },
    /\$\.assignment\.sessions\.p01\[0\]\.condition: unknown condition 'XY'/,
  );
});

test('a time limit of 0 is refused', async () => {
  await refused({ timeLimitMinutes: 0 }, /\$\.timeLimitMinutes: must be more than 0/);
});

test('a task whose chain file does not exist, and a condition that does not fit the chain, are refused', async () => {
  await refused(
    {
      tasks: [{ id: 't1', chain: 'missing.json', repo: demoRepo() }],
      conditions: [{ name: 'HHH', authors: ['human', 'human', 'human'] }],
      participants: ['p01'],
    },
    /\$\.tasks\[0\]\.chain: chain file .*missing\.json does not exist/,
  );
  await refused(
    { conditions: [{ name: 'HHH', authors: ['human', 'human', 'human'] }], participants: ['p01'] },
    /\$\.conditions\[0\]\.authors: condition 'HHH' names 3 author\(s\), but task 't1' .* has 2 steps/,
  );
});

test('a generated assignment with fewer participants than person conditions is refused', async () => {
  await refused(
    { participants: ['p01'] },
    /\$\.participants: a generated assignment .* needs at least 2 participants, not 1/,
  );
});

test('an unknown field and a bad id are refused (typos do not pass silently)', async () => {
  await refused({ feedbak: 'full' }, /Unrecognized key/);
  await refused({ participants: ['p 01', 'p02'] }, /\$\.participants\[0\]: expected an id/);
});
