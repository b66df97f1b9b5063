// The state of a run is the user's alone (docs/run-state.md, "Who can read the state"): another
// user (here `nobody`) can read none of it, neither in a data directory ChainLens makes nor in
// one an earlier version made 0755/0644 (tightened on the next command).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { withDataRoot } from '../../../src/infra/run/stateDir';

const skip =
  process.platform !== 'linux' || process.getuid?.() !== 0 ? 'reading as another user needs root on Linux' : false;

let tiny: TinyChain;
let home: string;

before(() => {
  if (skip) return;
  tiny = makeTinyChain();
  // A home of the usual mode: anyone may traverse it, as the attack on ~/.local/share did.
  home = mkdtempSync(join(tmpdir(), 'chainlens-home-'));
  chmodSync(home, 0o755);
});

after(() => {
  if (skip) return;
  tiny.cleanup();
  rmSync(home, { recursive: true, force: true });
});

/** Whether `nobody` can read `file` (cat as that user). */
function nobodyReads(file: string): boolean {
  return spawnSync('runuser', ['-u', 'nobody', '--', 'cat', file], { encoding: 'utf8' }).status === 0;
}

function chainCopy(data: string): string {
  const worktrees = join(data, 'worktrees');
  const [id] = readdirSync(worktrees);
  const runs = join(worktrees, id, 'runs');
  return join(
    runs,
    readdirSync(runs).find((f) => f.endsWith('.chain.json'))!,
  );
}

function loosen(path: string): void {
  chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  if (statSync(path).isDirectory()) for (const e of readdirSync(path)) loosen(join(path, e));
}

test(
  'a checkout makes the data directory 0700 and its files 0600: nobody cannot read the gold patches',
  { skip },
  async () => {
    const data = join(home, 'data-new');
    const dir = join(tiny.root, 'w-private');
    await withDataRoot(data, async () => {
      const r = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir]);
      assert.equal(r.code, 0, r.stderr);
    });
    const copy = chainCopy(data);
    assert.equal(statSync(data).mode & 0o777, 0o700);
    assert.equal(statSync(copy).mode & 0o777, 0o600);
    assert.equal(nobodyReads(copy), false, `nobody read ${copy}`);
  },
);

test('a data directory an earlier ChainLens made 0755/0644 is tightened by the next command', { skip }, async () => {
  const data = join(home, 'data-old');
  const dir = join(tiny.root, 'w-loose');
  await withDataRoot(data, async () => {
    assert.equal((await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir])).code, 0);
  });
  loosen(data);
  const copy = chainCopy(data);
  assert.equal(nobodyReads(copy), true, 'the set-up should let nobody read the loosened copy');
  await withDataRoot(data, async () => {
    const r = await runCli(['status', '--dir', dir]);
    assert.equal(r.code, 0, r.stderr);
  });
  assert.equal(nobodyReads(copy), false, `nobody still reads ${copy} after status`);
  assert.equal(statSync(data).mode & 0o777, 0o700);
});
