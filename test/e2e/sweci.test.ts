// SWE-CI in a real VS Code (code-server): the Requirement editor, the test gap and Submit SWE-CI
// Iteration on a real task's work tree (test/helpers/sweciTask.ts), driven from an extension-host
// suite (exthost/sweci.suite.ts). The task is initialised with the CLI first, in the real Docker engine.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  assertSuitePassed,
  openChainLensWorkbench,
  readExtensionHostLog,
  runExtensionHostSuite,
  screenshot,
  type ChainLensWorkbench,
} from './harness';
import { runCli } from '../helpers/cli';
import { buildTaskDataset, removeTaskImage, TASK_ID, type SweciTaskFixture } from '../helpers/sweciTask';

describe('SWE-CI in VS Code', () => {
  let fx: ChainLensWorkbench | undefined;
  let task: SweciTaskFixture | undefined;
  before(async () => {
    task = buildTaskDataset();
    const dir = join(task.root, 'work');
    const init = await runCli(['sweci', 'init', task.datasetDir, '--task', TASK_ID, '--dir', dir, '--limit', '6']);
    assert.equal(init.code, 0, init.stderr);
    const t = task;
    fx = await openChainLensWorkbench({ workspace: () => ({ dir, remove: () => t.remove() }) });
  });
  after(async () => {
    await fx?.close();
    removeTaskImage();
  });

  it('a person writes the requirement beside the code, reads the gap, submits an iteration that is graded', async () => {
    const report = await runExtensionHostSuite(fx!.server, join(__dirname, 'exthost', 'sweci.suite.ts'), {
      timeoutMs: 600_000,
      testTimeoutMs: 240_000,
    });
    await screenshot(fx!.page, 'sweci-after-suite');
    if (report.tests.some((t) => t.error)) console.log(readExtensionHostLog(fx!.server).slice(-6000));
    assertSuitePassed(report);
    assert.equal(report.tests.length, 3);
  });
});
