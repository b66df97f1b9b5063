import type Docker from 'dockerode';
import { spawnSync } from 'node:child_process';
import { connectDocker } from './connect';
import { LABEL_MANAGED, LABEL_RUN, managedLabels } from './owner';
import { onShutdown, shuttingDown } from '../process/shutdown';

/** Containers this process created and has not removed yet. */
interface LiveContainer {
  readonly container: Docker.Container;
  /**
   * The one removal under way. The engine refuses a second removal of a container while the
   * first runs (409 "removal already in progress"), so a shutdown that asked again would end the
   * process before the container is gone: it waits for the evaluation's own removal instead.
   */
  removal?: Promise<void>;
}
const live = new Map<string, LiveContainer>();
/** Swarm job services and configs (swarm/jobService.ts) this process made and has not removed yet. */
type SwarmKind = 'service' | 'config';
interface LiveSwarmObject {
  readonly remove: () => Promise<unknown>;
  /** The one removal under way: the job's own clean-up and a shutdown wait for the same one. */
  removal?: Promise<void>;
}
const liveSwarm = {
  service: new Map<string, LiveSwarmObject>(),
  config: new Map<string, LiveSwarmObject>(),
};
/**
 * Creations under way, each until it has settled completely (a container answered after the
 * signal is removed by its creation, below): a signal waits for them, so a container created a
 * moment after it is removed too.
 */
const creating = new Set<Promise<unknown>>();

/** Runs `creation`, tracked in `creating` until it has settled, its own clean-up included. */
function tracked<T>(creation: () => Promise<T>): Promise<T> {
  const work = creation();
  creating.add(work);
  // Registered before anyone else can wait for `work`: the set is up to date when they resume.
  void work.then(
    () => creating.delete(work),
    () => creating.delete(work),
  );
  return work;
}
let hooksInstalled = false;

/** How long a shutdown waits for the engine to answer creations in flight and removals. */
const SHUTDOWN_WAIT_MS = 15_000;

async function removeLive(): Promise<void> {
  const deadline = Date.now() + SHUTDOWN_WAIT_MS;
  const until = (work: Promise<unknown>) =>
    Promise.race([work, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref())]);
  // A creation answered after the signal adds its container to `live` (or removes it, below);
  // creations that started meanwhile are waited for too. The set only holds promises not yet
  // settled, so each turn waits for the engine (a set of settled ones would spin on microtasks
  // and starve the very responses it waits for).
  while (creating.size > 0 && Date.now() < deadline) await until(Promise.allSettled([...creating]));
  const removals = [...live.values()].map((c) => removeManagedContainer(c.container));
  // A config is in use until its service is gone: services first, then their configs.
  await until(
    Promise.allSettled([
      ...removals,
      ...[...liveSwarm.service.keys()].map((id) => removeManagedSwarmObject('service', id)),
    ]),
  );
  await until(Promise.allSettled([...liveSwarm.config.keys()].map((id) => removeManagedSwarmObject('config', id))));
}

/**
 * Removes a config, trying again every 200 ms for a while as long as the engine says it is in use:
 * a service removal answered a moment ago (ours, or the shutdown's) may not have released it yet.
 */
async function removeWhileInUse(remove: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + SHUTDOWN_WAIT_MS;
  for (;;) {
    try {
      await remove();
      return;
    } catch (e) {
      // 404: gone already; anything but "in use" will not change by waiting.
      if (!/in use/i.test(String((e as Error).message)) || Date.now() >= deadline) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Thrown by a creation asked for while the process shuts down: nothing is created then. */
export class ShuttingDownError extends Error {
  constructor() {
    super('ChainLens is shutting down: no container is created');
  }
}

/**
 * Process-exit safety net. `exit` handlers must be synchronous, so they shell out to the docker
 * CLI (when there is one). On SIGINT/SIGTERM/SIGHUP (infra/process/shutdown.ts) the containers
 * are removed through the API, after every evaluation was told it is being cut short. SIGKILL
 * cannot be caught: its leftovers carry their owner's labels, and the next ChainLens process
 * removes them (orphans.ts).
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
  onShutdown(removeLive);
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
  if (shuttingDown()) throw new ShuttingDownError();
  return tracked(async () => {
    const container = await docker.createContainer({
      ...options,
      Labels: { ...options.Labels, ...managedLabels(runId) },
    });
    live.set(container.id, { container });
    // Answered after the signal: removed at once (the shutdown waits for this creation to settle).
    if (shuttingDown()) {
      await removeManagedContainer(container);
      throw new ShuttingDownError();
    }
    return container;
  });
}

/**
 * Creates a swarm object (a job service or a config, swarm/jobService.ts) under the same guard as a
 * container: a signal waits for the creation, and removes the object with `remove`.
 */
export async function createManagedSwarmObject<T extends { id: string }>(
  kind: SwarmKind,
  create: () => Promise<T>,
  remove: (id: string) => Promise<unknown>,
): Promise<T> {
  installHooks();
  // After the signal the shutdown's removals may be over already: nothing is created then.
  if (shuttingDown()) throw new ShuttingDownError();
  return tracked(async () => {
    const made = await create();
    liveSwarm[kind].set(made.id, { remove: () => remove(made.id) });
    if (shuttingDown()) {
      await removeManagedSwarmObject(kind, made.id);
      throw new ShuttingDownError();
    }
    return made;
  });
}

/** Removes a swarm object made by createManagedSwarmObject; errors are ignored (it may be gone already). */
export async function removeManagedSwarmObject(kind: SwarmKind, id: string): Promise<void> {
  const object = liveSwarm[kind].get(id);
  if (!object) return;
  object.removal ??= (kind === 'config' ? removeWhileInUse(object.remove) : object.remove().then(() => undefined))
    .catch(() => undefined)
    .finally(() => liveSwarm[kind].delete(id));
  await object.removal;
}

/** Removes a container made by createManagedContainer (force: it may still run); errors are ignored. */
export async function removeManagedContainer(container: Docker.Container): Promise<void> {
  let entry = live.get(container.id);
  if (!entry) live.set(container.id, (entry = { container }));
  entry.removal ??= container
    .remove({ force: true, v: true })
    .then(() => undefined)
    .catch(() => undefined)
    .finally(() => live.delete(container.id));
  await entry.removal;
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
