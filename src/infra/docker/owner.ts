// Who owns a ChainLens container, written on it as labels when it is created, so that any later
// ChainLens process can tell a dead process's leftover (remove it) from a container a live one is
// using (never touch it), even on an engine shared by several machines. See
// docs/reference/containers.md.
import { hostname } from 'node:os';
import { ownStartToken, processGone } from '../process/processIdentity';

export const LABEL_MANAGED = 'chainlens.managed';
export const LABEL_RUN = 'chainlens.run';
/** The pid of the process that created the container. */
export const LABEL_PID = 'chainlens.pid';
/** When that process started (processIdentity.ts), so a reused pid is not mistaken for it. */
export const LABEL_PID_START = 'chainlens.pid-start';
/** The machine it runs on: pids mean nothing on another host. */
export const LABEL_HOST = 'chainlens.host';

export function ownerLabels(): Record<string, string> {
  return {
    [LABEL_PID]: String(process.pid),
    [LABEL_PID_START]: ownStartToken() ?? '',
    [LABEL_HOST]: hostname(),
  };
}

/** Every label of a container this process creates for run `runId`. */
export function managedLabels(runId: string): Record<string, string> {
  return { [LABEL_MANAGED]: 'true', [LABEL_RUN]: runId, ...ownerLabels() };
}

/**
 * Whether a container with these labels was left by a ChainLens process of this host that has
 * ended. Unknown owners (no pid label: containers of older versions, or made by hand) and other
 * hosts' containers are never orphans here.
 */
export function isOrphan(labels: Record<string, string> | undefined): boolean {
  if (!labels || labels[LABEL_MANAGED] !== 'true' || labels[LABEL_HOST] !== hostname()) return false;
  const pid = Number(labels[LABEL_PID]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return labels[LABEL_PID_START] !== (ownStartToken() ?? '') && !!labels[LABEL_PID_START];
  return processGone(pid, labels[LABEL_PID_START] || null);
}
