// Job services and configs of ChainLens processes that were killed are removed like their
// containers (orphans.ts): by the next ChainLens process that reaches the engine, when their owner
// labels (owner.ts) name this host and a process that has ended. An engine outside swarm mode has
// none, and answers the listing with an error that is ignored.
import type Docker from 'dockerode';
import { hostname } from 'node:os';
import { isOrphan, LABEL_HOST, LABEL_MANAGED } from '../owner';

interface Labelled {
  readonly ID: string;
  readonly Spec?: { Labels?: Record<string, string> };
}

/** Removes the orphaned services, then the orphaned configs (a config is in use while its service exists). */
export async function sweepOrphanSwarmObjects(docker: Docker): Promise<string[]> {
  const filters = { label: [`${LABEL_MANAGED}=true`, `${LABEL_HOST}=${hostname()}`] };
  const removed: string[] = [];
  const sweep = async (list: () => Promise<Labelled[]>, remove: (id: string) => Promise<unknown>) => {
    let found: Labelled[];
    try {
      found = await list();
    } catch {
      return; // not a swarm manager: nothing of ours can be there
    }
    const done = await Promise.all(
      found
        .filter((o) => isOrphan(o.Spec?.Labels))
        .map((o) =>
          remove(o.ID).then(
            () => o.ID,
            () => null,
          ),
        ),
    );
    removed.push(...done.filter((id): id is string => id !== null));
  };
  await sweep(
    () => docker.listServices({ filters }) as Promise<Labelled[]>,
    (id) => docker.getService(id).remove(),
  );
  await sweep(
    () => docker.listConfigs({ filters }) as Promise<Labelled[]>,
    (id) => docker.getConfig(id).remove(),
  );
  return removed;
}
