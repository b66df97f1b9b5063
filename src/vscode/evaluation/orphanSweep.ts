// The extension's part of "no leaked containers": at activation, once the window has settled,
// containers left by killed ChainLens processes of this machine (a CLI run killed with SIGKILL, a
// window that crashed) are removed. Off the critical path (a few seconds later, dockerode loaded
// only then) and only in a trusted window, where ChainLens may use the engine at all.
// See docs/reference/containers.md.
import * as vscode from 'vscode';

const AFTER_ACTIVATION_MS = 3000;

export function sweepOrphansAfterActivation(output: vscode.LogOutputChannel): vscode.Disposable {
  const timer = setTimeout(() => void sweep(output), AFTER_ACTIVATION_MS);
  return new vscode.Disposable(() => clearTimeout(timer));
}

async function sweep(output: vscode.LogOutputChannel): Promise<void> {
  if (!vscode.workspace.isTrusted) return;
  try {
    const { connectDocker, orphanSweepSettled } = await import('../../infra/docker');
    // Connecting starts the sweep (infra/docker/connect.ts); this waits for what it removed.
    await connectDocker();
    const removed = await orphanSweepSettled();
    if (removed.length)
      output.info(`removed ${removed.length} container(s) left behind by ChainLens processes that were killed`);
  } catch (e) {
    // No engine now is not a problem until the person evaluates something, which says so then.
    output.debug(`no container sweep at activation: ${e instanceof Error ? e.message : String(e)}`);
  }
}
