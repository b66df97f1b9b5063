// `chainlens batch --repeats N` as a process, in real containers (docs/reference/metrics.md, "Flaky
// tests"): step 1 of the tiny chain with one more PASS_TO_PASS test whose result is a coin toss
// (os.urandom in the container). Gold is graded 14 times on the same commit; the coin's test comes
// out flaky, the gold step is listed as not resolving every time, the record's verdict is its first
// run's, and every run's log is kept. The coin makes this test itself fail by chance when all 14
// tosses agree: p = 2^-13.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuiltCli } from '../helpers/builtCli';
import { batchRecords } from '../helpers/batchRecords';
import { git, makeTinyChain, writeFiles, type TinyChain } from '../helpers/tinyChain';

const RUNS = 14;
const COIN = 'tests/test_coin.py::test_coin';
let tiny: TinyChain;
let root: string;

before(() => {
  tiny = makeTinyChain();
  root = mkdtempSync(join(tmpdir(), 'chainlens-repeats-'));
});
after(() => {
  tiny.cleanup();
  rmSync(root, { recursive: true, force: true });
});

/** Step 1 of the tiny chain, its test patch adding the coin's test (a real `git diff`). */
function coinChain(): string {
  const scratch = join(root, 'scratch');
  git(root, 'clone', '-q', tiny.repo, scratch);
  writeFiles(scratch, { 'tests/test_coin.py': 'import os\n\n\ndef test_coin():\n    assert os.urandom(1)[0] < 128\n' });
  git(scratch, 'add', '-A');
  const fix = tiny.raw.bug_fixes[0] as (typeof tiny.raw.bug_fixes)[0] & { PASS_TO_PASS: string[] };
  const step = {
    ...fix,
    test_patch: fix.test_patch + git(scratch, 'diff', '--cached'),
    PASS_TO_PASS: [...fix.PASS_TO_PASS, COIN],
    // `python3 -m pytest` puts the repository on sys.path: the tiny repository has no package
    // layout for tests/ (its own `pytest` command cannot import calc in a container).
    test_cmds: 'python3 -m pytest -rA tests',
  };
  const file = join(root, 'coin-chain.json');
  writeFileSync(
    file,
    JSON.stringify({ ...tiny.raw, bug_fixes: [step], swebench_instance_ids: [step.swebench_instance_id] }),
  );
  return file;
}

test(`--repeats ${RUNS}: a test whose result changes between identical runs is reported flaky; the verdict is the first run's; every run's log is kept`, () => {
  const runDir = join(root, 'batch');
  const r = runBuiltCli(
    [
      'batch',
      coinChain(),
      '--run-dir',
      runDir,
      '--repo',
      tiny.repo,
      '--predictions',
      'gold',
      '--mode',
      'oracle',
      '--repeats',
      String(RUNS),
      '--workers',
      '1',
    ],
    { CHAINLENS_DATA: join(root, 'data') },
  );
  assert.equal(r.code, 0, r.stderr);
  const records = [...batchRecords(runDir).values()].map(
    (t) =>
      JSON.parse(t) as {
        resolved: boolean;
        log: string;
        repeats?: { runs: number; resolved: number; flaky_tests: string[] };
      },
  );
  assert.equal(records.length, 1);
  const [rec] = records;
  assert.ok(rec.repeats, 'the record has no repeats');
  assert.equal(rec.repeats.runs, RUNS);
  assert.deepEqual(rec.repeats.flaky_tests, [COIN]);
  assert.ok(rec.repeats.resolved > 0 && rec.repeats.resolved < RUNS, `resolved ${rec.repeats.resolved} of ${RUNS}`);
  // The record's verdict is its first run's, whose log is the record's own.
  const first = readFileSync(join(runDir, rec.log), 'utf8');
  assert.match(first, /test_coin (PASSED|FAILED)|(PASSED|FAILED) tests\/test_coin\.py::test_coin/);
  assert.equal(rec.resolved, /PASSED tests\/test_coin\.py::test_coin|test_coin PASSED/.test(first));
  for (let run = 2; run <= RUNS; run++)
    assert.ok(existsSync(join(runDir, rec.log.replace(/\.log$/, `.run-${run}.log`))), `no log of run ${run}`);
  // The report says it, from the run directory alone.
  assert.match(
    r.stdout,
    new RegExp(
      `flaky steps \\(each graded step evaluated ${RUNS} times on the same commit[^\\n]*: 1\\n {2}gold {2}oracle {2}tiny_calc_chain {2}position 1 \\(tiny__calc-1\\): resolved ${rec.repeats.resolved} of ${RUNS} \\(gold does not resolve it every time\\); flaky: ${COIN.replace(/\./g, '\\.')}`,
    ),
  );
});
