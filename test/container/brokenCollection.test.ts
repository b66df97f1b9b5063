// The demo chain as a batch whose step-1 prediction also adds a conftest.py with a broken import,
// so no test can be collected after it: in real Docker, the suite the solver broke is the
// solver's failure, never an infrastructure failure. Worked out by hand from the demo
// (demo/README.md): Oracle step 1 runs the broken patch at base (no test ran: error), steps 2-3
// are the demo agent's, resolved on the gold state; Seq carries the conftest.py into steps 2-3,
// which collect nothing either. So nothing leaves a denominator, Oracle resolves 2/3 and Seq
// 0/3 (Table 2's rule and every step graded alike), a relative change of −100%, and positions
// 2 and 3 are chain errors with fingerprint no-usable-patch: 2 of 2 downstream Seq failures.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuiltCli } from '../helpers/builtCli';
import { DEMO_CHAIN, DEMO_PREDICTIONS, ROOT, demoRepo } from '../helpers/demoRepo';

let root: string;
let predictions: string;

before(() => {
  root = mkdtempSync(join(tmpdir(), 'chainlens-broken-collection-'));
  // The step-1 patch: the demo agent's, plus a conftest.py that cannot be imported.
  const work = join(root, 'work');
  execFileSync('git', ['clone', '-q', demoRepo(), work]);
  execFileSync('git', ['apply', join(ROOT, 'demo/steps/1/predicted.patch')], { cwd: work });
  writeFileSync(join(work, 'conftest.py'), 'import invoicekit_plugins_that_do_not_exist  # noqa\n');
  execFileSync('git', ['add', '-A'], { cwd: work });
  const broken = execFileSync('git', ['diff', '--cached'], { cwd: work, encoding: 'utf8' });
  const lines = readFileSync(DEMO_PREDICTIONS, 'utf8').trim().split('\n');
  const first = JSON.parse(lines[0]) as Record<string, unknown>;
  predictions = join(root, 'broken.jsonl');
  writeFileSync(predictions, [JSON.stringify({ ...first, model_patch: broken }), ...lines.slice(1)].join('\n') + '\n');
});
after(() => rmSync(root, { recursive: true, force: true }));

test('a step-1 patch that breaks test collection: unresolved in every rate, two chain errors, nothing left out', () => {
  const runDir = join(root, 'run');
  const env = { CHAINLENS_DATA: join(root, 'data') };
  const batch = runBuiltCli(
    [
      'batch',
      DEMO_CHAIN,
      '--run-dir',
      runDir,
      '--repo',
      demoRepo(),
      '--predictions',
      `broken=${predictions}`,
      '--mode',
      'oracle,seq',
      '--workers',
      '2',
    ],
    env,
  );
  assert.equal(batch.code, 0, batch.stderr);
  const r = runBuiltCli(['report', runDir, '--json'], env);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as {
    excluded: unknown[];
    headline: {
      mode: string;
      perBug: { successes: number; total: number };
      vsOracle: { perBugRelative: number } | null;
    }[];
    groups: { mode: string; infraFailures: number; fingerprints: Record<string, number> }[];
    chainErrors: { position: number; fingerprint: string }[];
    chainErrorShares: { position: number; share: { successes: number; total: number } }[];
  };
  assert.deepEqual(report.excluded, []);
  assert.deepEqual(
    report.headline.map((h) => [h.mode, h.perBug.successes, h.perBug.total]),
    [
      ['oracle', 2, 3],
      ['seq', 0, 3],
    ],
  );
  assert.equal(report.headline[1].vsOracle!.perBugRelative, -1);
  assert.deepEqual(
    report.groups.map((g) => [g.mode, g.infraFailures, g.fingerprints['no-usable-patch']]),
    [
      ['oracle', 0, 1],
      ['seq', 0, 3],
    ],
  );
  assert.deepEqual(
    report.chainErrors.map((e) => [e.position, e.fingerprint]),
    [
      [2, 'no-usable-patch'],
      [3, 'no-usable-patch'],
    ],
  );
  assert.deepEqual(
    report.chainErrorShares.map((s) => [s.position, s.share.successes, s.share.total]),
    [
      [0, 2, 2],
      [2, 1, 1],
      [3, 1, 1],
    ],
  );
  // The records say why: the code's error (no test ran), not the environment's.
  const text = runBuiltCli(['report', runDir], env).stdout;
  assert.match(text, /left out of every denominator: none/);
  assert.match(text, /broken +seq +scored until first unresolved +0\/3/);
});
