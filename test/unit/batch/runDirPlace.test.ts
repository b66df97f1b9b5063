// A batch's run directory inside the work tree of a ChainLens run is refused before anything is
// written: its records, logs and gold patches would become the solver's changes (graded, and
// committed by submit). A folder elsewhere, or in a git repository without a run, is not.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { git, makeTinyChain } from '../../helpers/tinyChain';

const tiny = makeTinyChain();
after(() => tiny.cleanup());
const work = join(tiny.root, 'work');

test('--run-dir inside a run’s work tree: exit 2 naming both folders, nothing made, the tree clean', async () => {
  const co = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', work, '--mode', 'seq']);
  assert.equal(co.code, 0, co.stderr);
  for (const runDir of [join(work, '.chainlens-batches', 'b1'), work, join(work, 'sub', 'deeper')]) {
    for (const args of [
      ['batch', tiny.chainFile, '--run-dir', runDir, '--repo', tiny.repo, '--predictions', 'gold'],
      ['batch', '--run-dir', runDir],
    ]) {
      const r = await runCli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(`the batch run directory ${runDir} is inside ${work}, the work tree of a ChainLens run`),
      );
      assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
    }
  }
  assert.equal(existsSync(join(work, '.chainlens-batches')), false);
  assert.equal(git(work, 'status', '--porcelain'), '');
});

test('a run directory beside the work tree, or in a git repository without a run, is not refused', async () => {
  // The resume form, so no engine is needed: it goes on to look for the batch's manifest.
  for (const runDir of [join(tiny.root, 'batches', 'b2'), join(tiny.repo, 'batches', 'b3')]) {
    const r = await runCli(['batch', '--run-dir', runDir]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is not a ChainLens batch run directory/);
  }
});
