import type Docker from 'dockerode';
import { spawnSync } from 'node:child_process';
import { connectDocker } from './connect';

export const LABEL_MANAGED = 'chainlens.managed';
export const LABEL_RUN = 'chainlens.run';

export function managedLabels(runId: string): Record<string, string> {
  return { [LABEL_MANAGED]: 'true', [LABEL_RUN]: runId };
}

/** Containers this process created and has not removed yet. */
const live = new Map<string, Docker.Container>();
let hooksInstalled = false;

async function removeLive(): Promise<void> {
  const removals = [...live.values()].map((c) => c.remove({ force: true, v: true }).catch(() => undefined));
  live.clear();
  await Promise.race([Promise.allSettled(removals), new Promise((r) => setTimeout(r, 5000).unref())]);
}

/**
 * Process-exit safety net. `exit` handlers must be synchronous, so they shell out to the docker
 * CLI (when there is one; otherwise the labels let sweepContainers find the leftovers later).
 * On SIGINT/SIGTERM the containers are removed through the API first; when ChainLens's handler
 * is the only one, the signal is raised again so the process ends as it would have.
 */
function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => {
    if (live.size === 0) return;
    spawnSync('docker', ['rm', '-f', '-v', ...live.keys()], { stdio: 'ignore', timeout: 15_000 });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const handler = () => {
      const alone = process.listenerCount(signal) === 1;
      void removeLive().finally(() => {
        if (!alone) return;
        process.removeListener(signal, handler);
        process.kill(process.pid, signal);
      });
    };
    process.on(signal, handler);
  }
}

export function trackContainer(container: Docker.Container): void {
  installHooks();
  live.set(container.id, container);
}

export function untrackContainer(container: Docker.Container): void {
  live.delete(container.id);
}

/** Removes (force) containers ChainLens left behind: all of them, or those of one run. Returns how many. */
export async function sweepContainers(runId?: string, docker?: Docker): Promise<number> {
  const client = docker ?? (await connectDocker());
  const label = [`${LABEL_MANAGED}=true`, ...(runId ? [`${LABEL_RUN}=${runId}`] : [])];
  const found = await client.listContainers({ all: true, filters: { label } });
  const results = await Promise.allSettled(
    found.map((c) => client.getContainer(c.Id).remove({ force: true, v: true })),
  );
  return results.filter((r) => r.status === 'fulfilled').length;
}
