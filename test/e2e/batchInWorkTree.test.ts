// Run Batch… from a window whose folder is a chain run's work tree (the usual case: a person
// solving a chain starts a batch): the batch's run directory, records and logs (which hold every
// step's gold patch) go to ChainLens's data directory, so the work tree stays clean, and the
// step the person then submits holds their edit only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  openChainLensWorkbench,
  readExtensionHostLog,
  repoRoot,
  runExtensionHostSuite,
  type ChainLensWorkbench,
} from './harness';
import { makeDemoWorkspace, type DemoWorkspace } from './exthost/demoWorkspace';

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });

describe('a batch started from a window with a chain open', () => {
  let fx: ChainLensWorkbench<DemoWorkspace>;
  before(async () => {
    fx = await openChainLensWorkbench({ workspace: () => makeDemoWorkspace({ checkout: true }) });
  });
  after(() => fx?.close());

  it('writes nothing into the work tree; the next submit commits the person’s edit alone', async () => {
    const ws = fx.workspace.dir;
    // Ignored files too: a batch folder git ignores would still be graded as part of the tree.
    const everything = () => git(ws, 'status', '--porcelain', '--untracked-files=all', '--ignored');
    const before = everything();
    const report = await runExtensionHostSuite(fx.server, join(__dirname, 'exthost', 'batchInWorkTree.suite.ts'), {
      timeoutMs: 360_000,
      testTimeoutMs: 300_000,
    });
    const failed = report.tests.filter((t) => t.error);
    if (failed.length) console.log(readExtensionHostLog(fx.server).slice(-6000));
    assert.deepEqual(failed, []);
    assert.equal(git(ws, 'status', '--porcelain'), '', 'the work tree is clean');
    assert.equal(everything(), before, 'nothing new in it, not even ignored');
    const batches = join(process.env.CHAINLENS_DATA!, 'batches');
    assert.ok(existsSync(batches), `the run directory is under ${batches}`);
    assert.ok(
      readdirSync(batches).some((d) => existsSync(join(batches, d, 'manifest.json'))),
      'a batch run directory with its manifest',
    );

    // The person's edit, submitted: the step's commit holds that file and nothing else.
    appendFileSync(join(ws, 'README.md'), '\nA note of the person solving step 1.\n');
    execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'submit', '--dir', ws], { stdio: 'pipe' });
    assert.equal(git(ws, 'show', '--name-only', '--format=', 'HEAD').trim(), 'README.md');
  });
});
