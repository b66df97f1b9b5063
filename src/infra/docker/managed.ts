import type Docker from 'dockerode';
import { spawnSync } from 'node:child_process';
import { connectDocker } from './connect';
import { LABEL_MANAGED, LABEL_RUN, managedLabels } from './owner';

/** Containers this process created and has not removed yet. */
const live = new Map<string, Docker.Container>();
/** Swarm job services and configs (swarm/jobService.ts) this process made and has not removed yet. */
type SwarmKind = 'service' | 'config';
const liveSwarm = {
  service: new Map<string, () => Promise<unknown>>(),
  config: new Map<string, () => Promise<unknown>>(),
};
/** Creations under way: a signal waits for them, so a container created a moment after it is removed too. */
const creating = new Set<Promise<unknown>>();
let hooksInstalled = false;

async function removeLive(): Promise<void> {
  await Promise.race([Promise.allSettled([...creating]), new Promise((r) => setTimeout(r, 5000).unref())]);
  const removals = [...live.values()].map((c) => c.remove({ force: true, v: true }).catch(() => undefined));
  live.clear();
  // A config is in use until its service is gone: services first, then their configs.
  for (const kind of ['service', 'config'] as const) {
    removals.push(...[...liveSwarm[kind].values()].map((remove) => remove().catch(() => undefined)));
    liveSwarm[kind].clear();
    await Promise.race([Promise.allSettled(removals), new Promise((r) => setTimeout(r, 5000).unref())]);
  }
}

/**
 * Process-exit safety net. `exit` handlers must be synchronous, so they shell out to the docker
 * CLI (when there is one). On SIGINT/SIGTERM/SIGHUP the containers are removed through the API
 * first; when ChainLens's handler is the only one, the signal is raised again so the process ends
 * as it would have. SIGKILL cannot be caught: its leftovers carry their owner's labels, and the
 * next ChainLens process removes them (orphans.ts).
 */
function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => {
    if (live.size > 0) spawnSync('docker', ['rm', '-f', '-v', ...live.keys()], { stdio: 'ignore', timeout: 15_000 });
    for (const kind of ['service', 'config'] as const)
      if (liveSwarm[kind].size > 0)
        spawnSync('docker', [kind, 'rm', ...liveSwarm[kind].keys()], { stdio: 'ignore', timeout: 15_000 });
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
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

/**
 * Creates a container owned by this process for run `runId`: labelled with its owner
 * (owner.ts) and tracked from the moment the engine makes it, so no exit path (signal, crash,
 * normal end) leaves it behind. Remove it with removeManagedContainer.
 */
export async function createManagedContainer(
  docker: Docker,
  runId: string,
  options: Docker.ContainerCreateOptions,
): Promise<Docker.Container> {
  installHooks();
  const creation = docker.createContainer({
    ...options,
    Labels: { ...options.Labels, ...managedLabels(runId) },
  });
  creating.add(creation);
  try {
    const container = await creation;
    live.set(container.id, container);
    return container;
  } finally {
    creating.delete(creation);
  }
}

/**
 * Creates a swarm object (a job service or a config, swarm/jobService.ts) under the same guard as a
 * container: a signal waits for the creation, and removes the object with `remove`.
 */
export async function createManagedSwarmObject<T extends { id: string }>(
  kind: SwarmKind,
  creation: Promise<T>,
  remove: (id: string) => Promise<unknown>,
): Promise<T> {
  installHooks();
  creating.add(creation);
  try {
    const made = await creation;
    liveSwarm[kind].set(made.id, () => remove(made.id));
    return made;
  } finally {
    creating.delete(creation);
  }
}

/** Removes a swarm object made by createManagedSwarmObject; errors are ignored (it may be gone already). */
export async function removeManagedSwarmObject(kind: SwarmKind, id: string): Promise<void> {
  const remove = liveSwarm[kind].get(id);
  if (remove) await remove().catch(() => undefined);
  liveSwarm[kind].delete(id);
}

/** Removes a container made by createManagedContainer (force: it may still run); errors are ignored. */
export async function removeManagedContainer(container: Docker.Container): Promise<void> {
  await container.remove({ force: true, v: true }).catch(() => undefined);
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
