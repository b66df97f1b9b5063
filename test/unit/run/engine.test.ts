import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyChain, git, type TinyChain } from '../../helpers/tinyChain';
import { runCli } from '../../helpers/cli';

function withChain(fn: (c: TinyChain) => Promise<void>) {
  return async () => {
    const c = makeTinyChain();
    try {
      await fn(c);
    } finally {
      c.cleanup();
    }
  };
}

async function status(dir: string) {
  const r = await runCli(['status', '--dir', dir, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const ref = (dir: string, name: string) => git(dir, 'rev-parse', name).trim();

test(
  'checkout starts a Seq run at base_commit; state lives in the data directory, the work tree keeps only a pointer',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    const r = await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /mode seq {2}step 1 of 3/);
    assert.equal(ref(dir, 'HEAD'), c.baseCommit);
    assert.equal(git(dir, 'status', '--porcelain', '--untracked-files=all'), '');
    assert.deepEqual(readdirSync(join(dir, '.git/chainlens')), ['state']);
    const s = await status(dir);
    assert.ok(!s.stateDir.startsWith(dir), s.stateDir);
    assert.ok(existsSync(join(s.stateDir, 'runs', `${s.run.id}.chain.json`)));
    assert.equal(s.run.mode, 'seq');
    assert.deepEqual(
      s.steps.map((x: { status: string }) => x.status),
      ['current', 'pending', 'pending'],
    );
    assert.equal(ref(dir, `refs/chainlens/${s.run.id}/step-1/start`), c.baseCommit);
    // The hidden tests of step 1 are not in the work tree.
    assert.doesNotMatch(readFileSync(join(dir, 'tests/test_ops.py'), 'utf8'), /test_div_zero/);
  }),
);

test(
  'submit commits the human work, records step-k start/end refs and starts the next step where it ended (Seq)',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    assert.equal((await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir])).code, 0);
    writeFileSync(
      join(dir, 'calc/ops.py'),
      readFileSync(join(dir, 'calc/ops.py'), 'utf8').replace(
        'return a / b',
        'if not b:\n        raise ValueError("zero")\n    return a / b',
      ),
    );
    writeFileSync(join(dir, 'NOTES.txt'), 'untracked file of mine\n');
    const r = await runCli(['submit', '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    const s = await status(dir);
    const run = s.run.id;
    const start = ref(dir, `refs/chainlens/${run}/step-1/start`);
    const end = ref(dir, `refs/chainlens/${run}/step-1/end`);
    const patch = git(dir, 'diff', start, end);
    assert.match(patch, /raise ValueError\("zero"\)/);
    assert.match(patch, /NOTES\.txt/);
    assert.deepEqual(s.steps[0].patch, { files: 2, insertions: 3, deletions: 0 });
    assert.equal(s.steps[0].author.kind, 'human');
    assert.equal(typeof s.steps[0].elapsedMs, 'number');
    assert.equal(s.run.currentStep, 2);
    assert.equal(ref(dir, `refs/chainlens/${run}/step-2/start`), end);
    assert.equal(ref(dir, 'HEAD'), end);
    assert.equal(git(dir, 'symbolic-ref', '--short', 'HEAD').trim(), `chainlens/${run}`);
  }),
);

test(
  'Oracle start of step 3 is base + gold test_patch and patch of steps 1 and 2, whatever was submitted',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    const r = await runCli([
      'checkout',
      c.chainFile,
      '--repo',
      c.repo,
      '--dir',
      dir,
      '--mode',
      'oracle',
      '--step',
      '3',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const ops = readFileSync(join(dir, 'calc/ops.py'), 'utf8');
    assert.match(ops, /float\(a\) \+ float\(b\)/);
    assert.match(ops, /raise ValueError/);
    assert.ok(existsSync(join(dir, 'tests/test_strings.py')), 'gold test_patch of step 2 applied');
    assert.match(readFileSync(join(dir, 'tests/test_ops.py'), 'utf8'), /test_div_zero/);
    assert.ok(!existsSync(join(dir, 'calc/fmt.py')), "step 3's own gold patch is not applied");
    const s = await status(dir);
    assert.equal(s.run.currentStep, 3);
    assert.equal(git(dir, 'status', '--porcelain'), '');
  }),
);

test(
  'Oracle: after submitting step 1 badly, step 2 still starts from gold',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir, '--mode', 'oracle']);
    writeFileSync(join(dir, 'calc/ops.py'), 'broken = True\n');
    assert.equal((await runCli(['submit', '--dir', dir])).code, 0);
    assert.match(readFileSync(join(dir, 'calc/ops.py'), 'utf8'), /raise ValueError\("division by zero"\)/);
    const s = await status(dir);
    assert.match(
      git(dir, 'show', `${s.steps[0].end}:calc/ops.py`),
      /broken = True/,
      'the bad submission is kept at step-1/end',
    );
  }),
);

test(
  'replay with gold in Seq mode commits every step in turn; hidden tests never enter the tree',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    const r = await runCli([
      'replay',
      c.chainFile,
      '--repo',
      c.repo,
      '--dir',
      dir,
      '--mode',
      'seq',
      '--predictions',
      'gold',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const s = await status(dir);
    assert.equal(s.run.complete, true);
    assert.deepEqual(
      s.steps.map((x: { status: string }) => x.status),
      ['submitted', 'submitted', 'submitted'],
    );
    assert.ok(existsSync(join(dir, 'calc/fmt.py')));
    assert.ok(!existsSync(join(dir, 'tests/test_fmt.py')));
    for (const [i, fix] of c.raw.bug_fixes.entries()) {
      assert.equal(
        git(dir, 'diff', s.steps[i].start, s.steps[i].end),
        fix.patch,
        `step ${i + 1}'s patch is exactly the gold patch`,
      );
    }
  }),
);

test(
  'a recorded patch that does not apply marks the step, leaves the repository as it was, and the chain goes on',
  withChain(async (c) => {
    const preds = join(c.root, 'preds.jsonl');
    const bad =
      'diff --git a/calc/ops.py b/calc/ops.py\n--- a/calc/ops.py\n+++ b/calc/ops.py\n@@ -1,2 +1,2 @@\n-def nothing_like_this():\n+def x():\n     return 1\n';
    writeFileSync(
      preds,
      [
        { instance_id: 'tiny__calc-1', model_name_or_path: 'agent-x', model_patch: bad },
        {
          instance_id: 'tiny__calc-2',
          model_name_or_path: 'agent-x',
          model_patch: c.raw.bug_fixes[1].patch.replace(/\n$/, '') + '\n',
        },
      ]
        .map((p) => JSON.stringify(p))
        .join('\n'),
    );
    const dir = join(c.root, 'work');
    const r = await runCli([
      'replay',
      c.chainFile,
      '--repo',
      c.repo,
      '--dir',
      dir,
      '--mode',
      'seq',
      '--predictions',
      preds,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /recorded \(agent-x\) patch of step 1 does not apply/);
    const s = await status(dir);
    assert.deepEqual(
      s.steps.map((x: { status: string }) => x.status),
      ['patch_failed', 'patch_failed', 'empty_patch'],
    );
    assert.equal(s.steps[0].start, s.steps[0].end);
    assert.equal(git(dir, 'status', '--porcelain'), '');
    assert.equal(
      ref(dir, 'HEAD'),
      c.baseCommit,
      'nothing was applied: step 2 (built on gold 1) does not apply on the unchanged base either',
    );
    assert.match(s.steps[2].note, /produced no patch/);
  }),
);

test(
  'a patch that writes outside the repository or into .git is refused and nothing is written',
  withChain(async (c) => {
    for (const target of ['../escaped.txt', '.git/hooks/post-commit']) {
      const preds = join(c.root, 'preds.json');
      const patch = `diff --git a/${target} b/${target}\nnew file mode 100644\n--- /dev/null\n+++ b/${target}\n@@ -0,0 +1 @@\n+pwned\n`;
      writeFileSync(preds, JSON.stringify({ 'tiny__calc-1': { model_name_or_path: 'evil', model_patch: patch } }));
      const dir = join(c.root, `work-${target.length}`);
      const r = await runCli([
        'checkout',
        c.chainFile,
        '--repo',
        c.repo,
        '--dir',
        dir,
        '--authors',
        'recorded,human,human',
        '--predictions',
        preds,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /refused: it writes outside the repository/);
      assert.ok(!existsSync(join(c.root, 'escaped.txt')));
      assert.ok(!existsSync(join(dir, '.git/hooks/post-commit')));
      assert.equal((await status(dir)).steps[0].status, 'patch_failed');
    }
  }),
);

test(
  'AH condition: a recorded agent step 1 is applied automatically, then a person solves step 2 on top of it',
  withChain(async (c) => {
    const preds = join(c.root, 'preds.jsonl');
    writeFileSync(
      preds,
      JSON.stringify({
        instance_id: 'tiny__calc-1',
        model_name_or_path: 'agent-y',
        model_patch: c.raw.bug_fixes[0].patch,
      }) + '\n',
    );
    const dir = join(c.root, 'work');
    const r = await runCli([
      'checkout',
      c.chainFile,
      '--repo',
      c.repo,
      '--dir',
      dir,
      '--authors',
      'recorded,human,human',
      '--predictions',
      preds,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const s = await status(dir);
    assert.deepEqual(
      s.steps.map((x: { status: string }) => x.status),
      ['submitted', 'current', 'pending'],
    );
    assert.deepEqual(s.steps[0].author, { kind: 'recorded', model: 'agent-y', source: preds });
    assert.match(readFileSync(join(dir, 'calc/ops.py'), 'utf8'), /division by zero/);
  }),
);

test(
  'switching mode in the same work tree stashes uncommitted work (untracked too) and says where',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir]);
    writeFileSync(join(dir, 'calc/ops.py'), 'my precious edit\n');
    writeFileSync(join(dir, 'scratch.py'), 'my untracked file\n');
    const r = await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir, '--mode', 'oracle']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Your uncommitted changes were stashed: stash@\{0\}/);
    const s = await status(dir);
    assert.equal(s.run.mode, 'oracle');
    assert.ok(!existsSync(join(dir, 'scratch.py')));
    git(dir, 'stash', 'apply', '--quiet');
    assert.equal(readFileSync(join(dir, 'calc/ops.py'), 'utf8'), 'my precious edit\n');
    assert.equal(readFileSync(join(dir, 'scratch.py'), 'utf8'), 'my untracked file\n');
  }),
);

test(
  'bad input changes nothing on disk: invalid chain, unknown predictions, wrong authors',
  withChain(async (c) => {
    const dir = join(c.root, 'never');
    const badChain = join(c.root, 'bad.json');
    writeFileSync(badChain, JSON.stringify({ ...c.raw, base_commit: 'nothex' }));
    let r = await runCli(['checkout', badChain, '--repo', c.repo, '--dir', dir]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /bad\.json: \$\.base_commit: expected a commit hash/);
    const preds = join(c.root, 'p.jsonl');
    writeFileSync(preds, JSON.stringify({ instance_id: 'someone__else-1', model_patch: '' }) + '\n');
    r = await runCli(['replay', c.chainFile, '--repo', c.repo, '--dir', dir, '--mode', 'seq', '--predictions', preds]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /instance_id 'someone__else-1' is not a step of the chain/);
    r = await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir, '--authors', 'human,robot,human']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /'robot' is not an author/);
    r = await runCli(['checkout', c.chainFile, '--repo', join(c.root, 'nope'), '--dir', dir]);
    assert.equal(r.code, 1);
    assert.ok(!existsSync(dir), 'no work tree was created');
  }),
);

test(
  'a git URL goes through the mirror cache: the second checkout needs no access to the source',
  withChain(async (c) => {
    const cache = join(c.root, 'cache');
    process.env.CHAINLENS_CACHE = cache;
    try {
      const url = `file://${c.repo}`;
      assert.equal((await runCli(['checkout', c.chainFile, '--repo', url, '--dir', join(c.root, 'w1')])).code, 0);
      git(c.root, 'clone', '-q', '--bare', c.repo, join(c.root, 'moved.git'));
      // Make the source unreachable: the mirror alone must serve the next checkout.
      const { renameSync } = await import('node:fs');
      renameSync(c.repo, join(c.root, 'gone'));
      const r = await runCli(['checkout', c.chainFile, '--repo', url, '--dir', join(c.root, 'w2')]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(ref(join(c.root, 'w2'), 'HEAD'), c.baseCommit);
      // The work tree names no remote (nothing leads a solver to the source's later history); the run records it.
      assert.equal(git(join(c.root, 'w2'), 'remote').trim(), '');
      assert.equal((await status(join(c.root, 'w2'))).run.repoSource, url);
    } finally {
      delete process.env.CHAINLENS_CACHE;
    }
  }),
);
