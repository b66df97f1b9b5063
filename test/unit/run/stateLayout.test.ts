// Where a work tree's run state lives (docs/run-state.md): work trees of the old layout are migrated
// on open (also after an interrupted migration), a moved work tree keeps its state, a copied one is
// refused, a reused repository with later history is named, and a stash hidden by a killed mode
// switch is named by `status` with how to restore it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBuiltCli } from '../../helpers/builtCli';
import { runCli } from '../../helpers/cli';
import { git, makeTinyChain, type TinyChain } from '../../helpers/tinyChain';

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
  return { ...JSON.parse(r.stdout), stderr: r.stderr };
}

/** Turns a work tree back into the layout of earlier versions: its state under .git/chainlens/. */
function toOldLayout(dir: string, stateDir: string): void {
  const old = join(dir, '.git', 'chainlens');
  for (const entry of ['current', 'runs', 'journal.json'])
    if (existsSync(join(stateDir, entry))) renameSync(join(stateDir, entry), join(old, entry));
  rmSync(join(old, 'state'));
  rmSync(stateDir, { recursive: true });
}

test(
  'a work tree of the old layout is migrated on open: state moved out of .git, the run unchanged; an interrupted migration is finished',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    assert.equal(
      (await runCli(['replay', c.chainFile, '--repo', c.repo, '--dir', dir, '--mode', 'seq', '--predictions', 'gold']))
        .code,
      0,
    );
    const before = await status(dir);
    toOldLayout(dir, before.stateDir);
    assert.deepEqual(readdirSync(join(dir, '.git', 'chainlens')).sort(), ['current', 'runs']);

    const after = await status(dir);
    assert.match(after.stderr, /moved this work tree's ChainLens state out of .*\.git\/chainlens into /);
    assert.deepEqual(readdirSync(join(dir, '.git', 'chainlens')), ['state']);
    assert.deepEqual(after.steps, before.steps);
    assert.equal(after.run.id, before.run.id);
    assert.ok(existsSync(join(after.stateDir, 'runs', `${after.run.id}.chain.json`)));
    assert.doesNotMatch((await runCli(['status', '--dir', dir])).stderr, /moved/, 'migrated once');

    // Killed half way: pointer written, copy not renamed into place, old files still there.
    toOldLayout(dir, after.stateDir);
    writeFileSync(join(dir, '.git', 'chainlens', 'state'), 'half-migrated-0123456789\n');
    mkdirSync(`${join(after.stateDir, '..', 'half-migrated-0123456789')}.partial-99999999`, { recursive: true });
    const resumed = await status(dir);
    assert.ok(resumed.stateDir.endsWith('half-migrated-0123456789'), resumed.stateDir);
    assert.deepEqual(resumed.steps, before.steps);
    assert.deepEqual(readdirSync(join(dir, '.git', 'chainlens')), ['state']);
  }),
);

test(
  'a moved work tree keeps its state; a copy of a live work tree is refused (both would write one state)',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    assert.equal((await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir])).code, 0);
    const moved = join(c.root, 'moved');
    renameSync(dir, moved);
    const s = await status(moved);
    assert.equal(s.run.currentStep, 1);
    assert.equal(JSON.parse(readFileSync(join(s.stateDir, 'worktree.json'), 'utf8')).workTree, moved);

    const copy = join(c.root, 'copy');
    cpSync(moved, copy, { recursive: true });
    const r = await runCli(['status', '--dir', copy]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /copy is a copy of the ChainLens work tree .*moved: both point at the same run state/);
    assert.match(r.stderr, /delete .*copy\/\.git\/chainlens\/state here to start over/);
    assert.equal((await status(moved)).run.currentStep, 1, 'the original is untouched');

    // Another data directory than the run was made with: said plainly, and nothing is made there.
    const elsewhere = join(c.root, 'other-data');
    const lost = runBuiltCli(['status', '--dir', moved], { CHAINLENS_DATA: elsewhere });
    assert.equal(lost.code, 1);
    assert.match(
      lost.stderr,
      /points at the ChainLens state folder .*other-data.*, which does not exist: CHAINLENS_DATA/,
    );
    assert.ok(!existsSync(elsewhere));
  }),
);

test(
  "checking out into the person's own clone that holds later commits says so",
  withChain(async (c) => {
    const own = join(c.root, 'own');
    git(c.root, 'clone', '-q', c.repo, own);
    writeFileSync(join(c.repo, 'LATER.md'), 'a later upstream commit\n');
    git(c.repo, 'add', '-A');
    git(c.repo, 'commit', '-q', '-m', 'later');
    git(own, 'fetch', '-q', 'origin');
    const r = await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', own]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /holds 1 commit\(s\) after the chain's base commit \(on origin\/main\): whoever solves here can read them/,
    );
    // A fresh checkout of the same source holds none, and says nothing.
    const fresh = await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', join(c.root, 'fresh')]);
    assert.doesNotMatch(fresh.stderr, /after the chain's base commit/);
  }),
);

test(
  'a mode switch killed right after stashing: status names the stash and how to restore it',
  withChain(async (c) => {
    const dir = join(c.root, 'work');
    assert.equal((await runCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir])).code, 0);
    // Past step 1, so the Oracle run's start is another commit and the switch really checks it out.
    writeFileSync(join(dir, 'calc/ops.py'), 'step 1 by hand\n');
    assert.equal((await runCli(['submit', '--dir', dir])).code, 0);
    writeFileSync(join(dir, 'calc/ops.py'), 'my precious edit\n');
    const killed = runBuiltCli(['checkout', c.chainFile, '--repo', c.repo, '--dir', dir, '--mode', 'oracle'], {
      CHAINLENS_FAULT_KILL_AT: 'switch:journaled',
    });
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.doesNotMatch(killed.stderr, /stashed/, 'the note naming the stash was never printed');

    const r = await runCli(['status', '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    const line = r.stdout.split('\n').find((l) => l.startsWith('stash'));
    assert.match(
      line ?? '',
      /^stash {2}stash@\{0\} \([0-9a-f]{10}\): your uncommitted work from before run oracle-[\d-]+ started; restore with: git stash apply stash@\{0\}$/,
    );
    const json = await status(dir);
    assert.equal(json.stashes.length, 1);
    assert.equal(json.stashes[0].ref, 'stash@{0}');
    // The work is there (applying it onto the Oracle start would conflict with step 1's edit: git's call, not ours).
    assert.match(git(dir, 'stash', 'show', '-p', 'stash@{0}'), /^\+my precious edit$/m);
  }),
);
