// `chainlens evidence` in real Docker on a tiny chain built for it, with two planted causes:
//   step 1's recorded patch undershoots: it leaves out gold's lib/b.py hunk (the helper h that
//     step 2's fix calls), so gold 2 fails on the Seq start state of step 2: poisoned by step 1,
//     undershoot, gold hunk lib/b.py#1;
//   step 2's recorded patch is gold's plus one planted overshoot hunk in lib/c.py (k returns 11),
//     so gold 3 fails on the Seq start state of step 3: poisoned by step 2, overshoot, recorded
//     hunk lib/c.py#1, and by nothing else (step 1 replaced by gold alone does not fix it).
// Step 3's recorded patch is gold's. Containers: the batch (6), then 3 trials for step 2 (Seq
// state, step 1 gold, gold hunk added) and 4 for step 3 (Seq state, step 1 gold, step 2 gold,
// planted hunk left out).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuiltCli } from '../helpers/builtCli';
import { BatchRunDir } from '../../src/infra/batch/runDir';
import { inheritedDifference } from '../../src/app/batch/inheritedDifference';
import { git, writeFiles } from '../helpers/tinyChain';

const pad = Array.from({ length: 8 }, (_, i) => `# padding ${i + 1}`).join('\n');
const BASE = {
  'lib/__init__.py': '',
  'lib/a.py': 'def f(x):\n    return x\n',
  'lib/b.py': `def g(x):\n    return x\n\n\n${pad}\n\n\ndef tail():\n    return 0\n`,
  'lib/c.py': `def k():\n    return 10\n\n\n${pad}\n\n\ndef m():\n    return k() * 2\n`,
  'tests/__init__.py': '',
  'tests/test_base.py': 'def test_ok():\n    assert True\n',
};

let root: string;
let repo: string;
let chainFile: string;
let predictions: string;

function diffOf(dir: string, files: Record<string, string>): string {
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  const d = git(dir, 'diff', '--cached');
  git(dir, 'commit', '-q', '-m', 'x');
  return d;
}

before(() => {
  root = mkdtempSync(join(tmpdir(), 'chainlens-evidence-'));
  repo = join(root, 'upstream');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFiles(repo, BASE);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  const baseCommit = git(repo, 'rev-parse', 'HEAD').trim();
  const b1 = BASE['lib/b.py'] + '\n\ndef h():\n    return 1\n';
  const a1 = 'def f(x):\n    return x + 1\n';
  const b2 = b1.replace('    return x\n', '    return x + h()\n');
  const c3 = BASE['lib/c.py'].replace('k() * 2', 'k() * 3');
  const planted = BASE['lib/c.py'].replace('return 10', 'return 11');

  // Gold and test patches, each on top of the last (the Oracle history).
  const gold = join(root, 'gold');
  git(root, 'clone', '-q', repo, gold);
  const gold1 = diffOf(gold, { 'lib/a.py': a1, 'lib/b.py': b1 });
  const test1 = diffOf(gold, { 'tests/test_a.py': 'from lib.a import f\n\n\ndef test_f():\n    assert f(1) == 2\n' });
  const gold2 = diffOf(gold, { 'lib/b.py': b2 });
  const test2 = diffOf(gold, { 'tests/test_b.py': 'from lib.b import g\n\n\ndef test_g():\n    assert g(1) == 2\n' });
  const gold3 = diffOf(gold, { 'lib/c.py': c3 });
  const test3 = diffOf(gold, { 'tests/test_c.py': 'from lib.c import m\n\n\ndef test_m():\n    assert m() == 30\n' });
  // The solver's patches (the Seq history).
  const solver = join(root, 'solver');
  git(root, 'clone', '-q', repo, solver);
  const rec1 = diffOf(solver, { 'lib/a.py': a1 });
  const rec2 = diffOf(solver, {
    'lib/b.py': BASE['lib/b.py'].replace('    return x\n', '    return x + h()\n'),
    'lib/c.py': planted,
  });

  const steps = [
    [gold1, test1, 'tests/test_a.py::test_f', rec1],
    [gold2, test2, 'tests/test_b.py::test_g', rec2],
    [gold3, test3, 'tests/test_c.py::test_m', gold3],
  ] as const;
  chainFile = join(root, 'chain.json');
  writeFileSync(
    chainFile,
    JSON.stringify({
      continuous_id: 'evidence_chain',
      repo: 'tiny/lib',
      base_commit: baseCommit,
      source: 'test fixture',
      docker_image: 'chainlens/base:bookworm',
      bug_fixes: steps.map(([patch, testPatch, f2p], i) => ({
        order: i + 1,
        swebench_instance_id: `tiny__lib-${i + 1}`,
        problem_statement: `bug ${i + 1}`,
        patch,
        test_patch: testPatch,
        FAIL_TO_PASS: [f2p],
        PASS_TO_PASS: ['tests/test_base.py::test_ok'],
        test_cmds: 'pytest -rA tests',
      })),
    }),
  );
  predictions = join(root, 'solver.jsonl');
  writeFileSync(
    predictions,
    steps
      .map(([, , , rec], i) =>
        JSON.stringify({ instance_id: `tiny__lib-${i + 1}`, model_name_or_path: 'solver', model_patch: rec }),
      )
      .join('\n') + '\n',
  );
});
after(() => rmSync(root, { recursive: true, force: true }));

test('evidence: gold on the Seq start state is poisoned, and the culprit search names the planted hunks and no other', async () => {
  const runDir = join(root, 'run');
  const env = { CHAINLENS_DATA: join(root, 'data') };
  const batch = runBuiltCli(
    [
      'batch',
      chainFile,
      '--run-dir',
      runDir,
      '--repo',
      repo,
      '--predictions',
      `solver=${predictions}`,
      '--workers',
      '2',
    ],
    env,
  );
  assert.equal(batch.code, 0, batch.stderr);
  const ev = runBuiltCli(['evidence', runDir], env);
  assert.equal(ev.code, 0, ev.stderr);
  assert.match(ev.stdout, /2 chain error\(s\) with evidence/);
  assert.deepEqual(readdirSync(runDir).sort(), ['evidence', 'logs', 'manifest.json', 'records'], 'scratch is left');
  const r = runBuiltCli(['report', runDir, '--json'], env);
  const report = JSON.parse(r.stdout) as {
    chainErrors: {
      position: number;
      cause: string;
      causeFrom: string;
      evidence: { verdict: string; culprits: { position: number; hunks: { kind: string; hunk: string }[] }[] };
    }[];
  };
  assert.deepEqual(
    report.chainErrors.map((e) => [e.position, e.evidence.verdict, e.evidence.culprits, e.cause, e.causeFrom]),
    [
      [
        2,
        'poisoned',
        [
          {
            position: 1,
            order: 1,
            hunks: [
              { kind: 'undershoot', hunk: 'lib/b.py#1', file: 'lib/b.py', header: '@@ -14,3 +14,7 @@ def g(x):' },
            ],
          },
        ],
        'undershoot',
        'evidence',
      ],
      [
        3,
        'poisoned',
        [
          {
            position: 2,
            order: 2,
            hunks: [{ kind: 'overshoot', hunk: 'lib/c.py#1', file: 'lib/c.py', header: '@@ -1,5 +1,5 @@' }],
          },
        ],
        'overshoot',
        'evidence',
      ],
    ],
  );
  const evidence = new BatchRunDir(runDir).readEvidence();
  const trials = (order: number) =>
    evidence.find((e) => e.order === order)!.trials.map((t) => `${t.change}: ${t.outcome}`);
  assert.deepEqual(trials(2), ['none: unresolved', 'step 1: gold: resolved', 'step 1: with gold lib/b.py#1: resolved']);
  assert.deepEqual(trials(3), [
    'none: unresolved',
    'step 1: gold: unresolved',
    'step 2: gold: resolved',
    'step 2: without lib/c.py#1: resolved',
  ]);
  const text = runBuiltCli(['report', runDir], env).stdout;
  assert.match(text, /evidence: poisoned by step 1's hunk lib\/b\.py#1 \(undershoot\)/);
  assert.match(text, /evidence: poisoned by step 2's hunk lib\/c\.py#1 \(overshoot\)/);
  // What step 2 inherits under Seq that Oracle has not: gold's helper h is missing; a.py is the same.
  const step2 = await inheritedDifference(runDir, 'evidence_chain', 'solver', 2);
  assert.match(step2.diff, /^-def h\(\):$/m);
  assert.doesNotMatch(step2.diff, /lib\/a\.py/);
  const step3 = await inheritedDifference(runDir, 'evidence_chain', 'solver', 3);
  assert.match(step3.diff, /^\+    return 11$/m);
  await assert.rejects(inheritedDifference(runDir, 'evidence_chain', 'solver', 1), /inherits nothing/);
  // Run again: nothing left to test, nothing rerun, nothing left behind.
  const again = runBuiltCli(['evidence', runDir], env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stderr, '');
  assert.deepEqual(readdirSync(runDir).sort(), ['evidence', 'logs', 'manifest.json', 'records']);
});
