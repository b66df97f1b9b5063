// A ChainLens batch run directory a user moved into a work tree is never graded or committed as
// part of a step (issue: "never grade or commit its own files if a user puts them there"); a
// user's own file called manifest.json is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Git } from '../../../src/infra/git/git';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

test('a batch run directory in the work tree is left out of the step patch and the commit; the rest is in', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-own-outputs-'));
  try {
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'calc.py'), 'def f():\n    return 1\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
    const base = git(dir, 'rev-parse', 'HEAD').trim();
    // The solver's edit, a user's own manifest.json, and a copied batch run directory.
    writeFileSync(join(dir, 'calc.py'), 'def f():\n    return 2\n');
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'manifest.json'), '{"format": "my-app", "name": "x"}\n');
    const run = join(dir, '.chainlens-batches', 'demo-20261203');
    mkdirSync(join(run, 'records', 'gold', 'oracle'), { recursive: true });
    writeFileSync(join(run, 'manifest.json'), JSON.stringify({ format: 'chainlens-batch', version: 1 }, null, 2));
    writeFileSync(join(run, 'records', 'gold', 'oracle', 'step-1.json'), '{"gold_patch": "diff --git a/calc.py"}\n');

    const g = new Git(dir);
    const patch = await g.diffWorkTree(base);
    assert.match(patch, /calc\.py/);
    assert.match(patch, /config\/manifest\.json/);
    assert.doesNotMatch(patch, /chainlens-batches/);

    const head = await g.commitAll('step 1');
    const files = git(dir, 'diff', '--name-only', base, head).trim().split('\n');
    assert.deepEqual(files.sort(), ['calc.py', 'config/manifest.json']);
    // Still there, untouched, for the user to move out.
    assert.match(git(dir, 'status', '--porcelain'), /\?\? \.chainlens-batches\//);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
