// `chainlens codethread build` on the demo chain's three instances with real git: two-step chains
// that validate and check out, PR0 as a root commit that keeps the removed bodies out of the work
// tree, the same PR0 id on a second build, skipped instances with reasons, bad input refused with
// nothing written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { DEMO_CHAIN } from '../../helpers/demoRepo';
import { demoRepoWithFixCommits } from '../../helpers/demoFixCommits';
import { loadChain } from '../../../src/core/formats/loadChain';

let repo: ReturnType<typeof demoRepoWithFixCommits>;
const work = mkdtempSync(join(tmpdir(), 'chainlens-codethread-'));
const tasks = join(work, 'tasks.jsonl');
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

before(async () => {
  repo = demoRepoWithFixCommits();
  const r = await runCli(['codethread', 'build', DEMO_CHAIN, '--repo', repo.dir, '--out', tasks]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
});
after(() => {
  repo.remove();
  rmSync(work, { recursive: true, force: true });
});

const lines = () => readFileSync(tasks, 'utf8').trim().split('\n');

test('one two-step codethread chain per instance, each valid, base_commit = PR0 under its ref', async () => {
  assert.equal(lines().length, 3);
  for (const line of lines()) {
    const raw = JSON.parse(line) as { continuous_id: string };
    const chain = loadChain('tasks.jsonl', readFileSync(tasks, 'utf8'), { chainId: raw.continuous_id });
    assert.equal(chain.format, 'codethread');
    assert.equal(chain.steps.length, 2);
    assert.equal(chain.steps[0].grading, 'pr1-filter');
    assert.equal(chain.steps[1].grading, undefined);
    assert.equal(chain.steps[0].instanceId, `${chain.codethread!.instance_id}.implementation`);
    assert.equal(git(repo.dir, 'rev-parse', chain.codethread!.pr0_ref), chain.baseCommit);
    // PR0 is a root commit: no earlier commit (holding the removed bodies) comes with it.
    assert.equal(git(repo.dir, 'rev-list', '--count', chain.baseCommit), '1');
    const v = await runCli(['validate', tasks, '--chain-id', raw.continuous_id]);
    assert.equal(v.code, 0, v.stderr);
  }
});

test('step 1 gold is the reverse of the skeleton: PR0 + gold = the original base tree', () => {
  const chain = loadChain('tasks.jsonl', readFileSync(tasks, 'utf8'), {
    chainId: 'codethread.chainlens-demo__invoicekit-102',
  });
  const base = chain.codethread!.original_base_commit;
  assert.equal(base, repo.commits[0]);
  const scratch = join(work, 'apply');
  git(repo.dir, 'worktree', 'add', '-q', '--detach', scratch, chain.baseCommit);
  try {
    execFileSync('git', ['apply', '-'], { cwd: scratch, input: chain.steps[0].goldPatch });
    assert.equal(git(scratch, 'diff', base, '--stat'), '');
    // and step 2's gold applies on top, as the original instance's does on its base
    execFileSync('git', ['apply', '--check', '-'], { cwd: scratch, input: chain.steps[1].goldPatch });
  } finally {
    git(repo.dir, 'worktree', 'remove', '--force', scratch);
  }
});

test('a second build gives the same PR0 commits and the same file', async () => {
  const first = readFileSync(tasks, 'utf8');
  const again = join(work, 'again.jsonl');
  const r = await runCli(['codethread', 'build', DEMO_CHAIN, '--repo', repo.dir, '--out', again]);
  assert.equal(r.code, 0);
  assert.equal(readFileSync(again, 'utf8'), first);
});

test('checkout: the work tree holds PR0 only, never the removed bodies', async () => {
  const dir = join(work, 'wt');
  const r = await runCli([
    'checkout',
    tasks,
    '--chain-id',
    'codethread.chainlens-demo__invoicekit-101',
    '--repo',
    repo.dir,
    '--dir',
    dir,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(readFileSync(join(dir, 'invoicekit/parse.py'), 'utf8'), /raise NotImplementedError/);
  const everything = git(dir, 'rev-list', '--all', '--objects');
  const base = repo.commits[0];
  assert.equal(everything.includes(base), false);
  // No blob reachable in the work tree's repository holds parse_amount's original body.
  const blobs = everything.split('\n').map((l) => l.split(' ')[0]);
  const body = '_AMOUNT_RE.fullmatch(cleaned)';
  for (const b of blobs) {
    if (git(dir, 'cat-file', '-t', b) !== 'blob') continue;
    assert.equal(git(dir, 'cat-file', 'blob', b).includes(body), false, `blob ${b} holds the removed body`);
  }
});

test("--condition HA needs the agent's predictions for step 2", async () => {
  const r = await runCli([
    'checkout',
    tasks,
    '--chain-id',
    'codethread.chainlens-demo__invoicekit-101',
    '--repo',
    repo.dir,
    '--dir',
    join(work, 'ha'),
    '--condition',
    'HA',
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--predictions: step 2 is authored 'recorded' but no predictions file was given/);
  assert.equal(existsSync(join(work, 'ha')), false);
});

test('--condition on a chain that is not a CodeThread task is a usage error', async () => {
  const r = await runCli(['checkout', DEMO_CHAIN, '--repo', repo.dir, '--dir', join(work, 'x'), '--condition', 'AA']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--condition: applies to CodeThread tasks/);
  assert.equal(existsSync(join(work, 'x')), false);
});

test('an instance without a function body to remove is skipped with its reason', async () => {
  const instances = join(work, 'instances.json');
  const only = (patch: string, id: string) => ({
    repo: 'chainlens-demo/invoicekit',
    instance_id: id,
    base_commit: repo.commits[0],
    patch,
    test_patch: '',
    problem_statement: 'x',
    FAIL_TO_PASS: [],
    PASS_TO_PASS: [],
    image: 'chainlens/base:bookworm',
  });
  const readme =
    'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# invoicekit\n+# invoicekit!\n';
  writeFileSync(instances, JSON.stringify([only(readme, 'demo__docs-1')]));
  const out = join(work, 'none.jsonl');
  const skipped = join(work, 'skipped.jsonl');
  const first = readFileSync(join(repo.dir, 'README.md'), 'utf8').split('\n')[0];
  assert.equal(first, '# invoicekit');
  const r = await runCli(['codethread', 'build', instances, '--repo', repo.dir, '--out', out, '--skipped', skipped]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /skipped demo__docs-1: no-code-files/);
  assert.equal(existsSync(out), false);
  assert.deepEqual(JSON.parse(readFileSync(skipped, 'utf8')), {
    instance_id: 'demo__docs-1',
    reason: 'no-code-files',
    detail: 'the gold patch changes no source file of a language ChainLens parses (README.md)',
  });
});

test('a malformed instance is named by file, JSON path and field; nothing is written', async () => {
  const instances = join(work, 'bad.json');
  const good = JSON.parse(readFileSync(DEMO_CHAIN, 'utf8')) as { bug_fixes: { patch: string }[] };
  writeFileSync(
    instances,
    JSON.stringify([
      {
        repo: 'chainlens-demo/invoicekit',
        instance_id: 'demo__ok-1',
        base_commit: repo.commits[0],
        patch: good.bug_fixes[1].patch,
        test_patch: '',
        problem_statement: 'x',
        FAIL_TO_PASS: [],
        PASS_TO_PASS: [],
        image: 'chainlens/base:bookworm',
      },
      { repo: 'chainlens-demo/invoicekit', instance_id: 'demo__bad-2', base_commit: 'xyz', patch: '', test_patch: '' },
    ]),
  );
  const out = join(work, 'bad-out.jsonl');
  const refsBefore = git(repo.dir, 'for-each-ref');
  const r = await runCli(['codethread', 'build', instances, '--repo', repo.dir, '--out', out]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /bad\.json: \$\[1\]\.base_commit: expected a commit hash/);
  assert.match(r.stderr, /bad\.json: \$\[1\]\.problem_statement: missing required field/);
  assert.equal(existsSync(out), false);
  assert.equal(git(repo.dir, 'for-each-ref'), refsBefore);
});

test('usage errors: no --out, an --out in a missing directory, an unknown subcommand', async () => {
  const cases: string[][] = [
    ['codethread', 'build', DEMO_CHAIN, '--repo', '.'],
    ['codethread', 'build', DEMO_CHAIN, '--repo', '.', '--out', join(work, 'missing', 'x.jsonl')],
    ['codethread', 'make'],
    ['codethread', 'build', DEMO_CHAIN, '--repo', '.', '--out', join(work, 'y.jsonl'), '--instances', ','],
  ];
  for (const args of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
  }
});

test('--instances picks instances; an unknown one is named', async () => {
  const out = join(work, 'one.jsonl');
  const r = await runCli([
    'codethread',
    'build',
    DEMO_CHAIN,
    '--repo',
    repo.dir,
    '--out',
    out,
    '--instances',
    'chainlens-demo__invoicekit-103',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 1);
  const bad = await runCli([
    'codethread',
    'build',
    DEMO_CHAIN,
    '--repo',
    repo.dir,
    '--out',
    out,
    '--instances',
    'nope',
  ]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /has no instance 'nope'/);
});
