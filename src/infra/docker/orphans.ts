// Containers of ChainLens processes that were killed (SIGKILL, a crash, a closed laptop lid that
// never came back) are removed by the next ChainLens process that reaches the engine: every CLI
// command that touches Docker, and the extension at activation. Only containers whose owner
// labels (owner.ts) name this host and a process that has ended are removed, never a live one's.
// See docs/reference/containers.md.
import type Docker from 'dockerode';
import { hostname } from 'node:os';
import { isOrphan, LABEL_HOST, LABEL_MANAGED } from './owner';
import { sweepOrphanSwarmObjects } from './swarm/sweep';

/** Removes the orphaned ChainLens containers on `docker`; returns the ids removed. */
export async function sweepOrphanContainers(docker: Docker): Promise<string[]> {
  const found = await docker.listContainers({
    all: true,
    filters: { label: [`${LABEL_MANAGED}=true`, `${LABEL_HOST}=${hostname()}`] },
  });
  const orphans = found.filter((c) => isOrphan(c.Labels));
  const removed = await Promise.all(
    orphans.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .then(
          () => c.Id,
          () => null,
        ),
    ),
  );
  return removed.filter((id): id is string => id !== null);
}

/** A sweep at most this often in a long-lived process (the extension host): listing is cheap, but not free. */
const SWEEP_INTERVAL_MS = 60_000;
let lastSweep: { at: number; done: Promise<string[]> } | undefined;

/**
 * Starts a sweep in the background, unless one ran in the last minute. The caller goes on at
 * once; orphanSweepSettled() waits for it (a process about to exit, a log line to write).
 */
export function sweepOrphansInBackground(docker: Docker): void {
  const now = Date.now();
  if (lastSweep && now - lastSweep.at < SWEEP_INTERVAL_MS) return;
  // An engine that cannot list containers now is asked again next time.
  // Swarm job services and their configs (--engine swarm) are swept alongside the containers.
  const done = Promise.all([
    sweepOrphanContainers(docker).catch(() => []),
    sweepOrphanSwarmObjects(docker).catch(() => []),
  ]).then(([containers, swarm]) => [...containers, ...swarm]);
  lastSweep = { at: now, done };
}

/** The ids the latest background sweep removed, once it is done (or [] after `timeoutMs`, or without one). */
export async function orphanSweepSettled(timeoutMs = 15_000): Promise<string[]> {
  if (!lastSweep) return [];
  let timer: NodeJS.Timeout | undefined;
  const removed = await Promise.race([
    lastSweep.done,
    new Promise<string[]>((r) => (timer = setTimeout(() => r([]), timeoutMs))),
  ]);
  clearTimeout(timer);
  return removed;
}
