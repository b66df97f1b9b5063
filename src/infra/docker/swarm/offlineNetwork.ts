// A Swarm task cannot be put on Docker's `none` network (moby/moby#44403, #42204: "could not find
// the corresponding predefined swarm network"), and one attached to no network is put on the
// node's bridge. The equivalent of `none` is an overlay network made with --internal: it has no
// gateway (no docker_gwbridge attachment), so a task on it alone reaches neither the host nor
// anything beyond, only other tasks on it, and ChainLens runs one step per task with no peer.
import type Docker from 'dockerode';
import { EVALUATION_NETWORK_DEFAULT, evaluationNetwork } from '../network';

/** The internal overlay network evaluation tasks run on by default; made once per swarm, kept. */
export const SWARM_OFFLINE_NETWORK = 'chainlens-offline';

/** The network a job service's task is attached to: the offline one, unless the caller names one. */
export async function swarmTaskNetwork(docker: Docker, network: string | undefined): Promise<string> {
  // The caller's choice, else CHAINLENS_EVAL_NETWORK (--network), as for a local container.
  const mode = evaluationNetwork(network);
  if (mode !== EVALUATION_NETWORK_DEFAULT) return mode;
  // Asked every time, not remembered: a long-lived process (the extension) outlives a swarm left
  // and made again, and the network goes with the swarm. An inspect costs a few milliseconds.
  await ensureOfflineNetwork(docker);
  return SWARM_OFFLINE_NETWORK;
}

const exists = async (docker: Docker): Promise<boolean> => {
  try {
    await docker.getNetwork(SWARM_OFFLINE_NETWORK).inspect();
    return true;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode !== 404) throw e;
    return false;
  }
};

async function ensureOfflineNetwork(docker: Docker): Promise<void> {
  if (await exists(docker)) return;
  try {
    await docker.createNetwork({
      Name: SWARM_OFFLINE_NETWORK,
      Driver: 'overlay',
      Internal: true,
      Attachable: false,
      CheckDuplicate: true,
      Labels: { 'chainlens.network': 'offline' },
    });
  } catch (e) {
    // Made by another process at the same moment: theirs is the same network. The engine says so
    // with 409, or, from the swarm managers, with a 500 "name conflicts with an existing object";
    // so whatever the error, the network existing now is what counts.
    if (!(await exists(docker))) throw e;
  }
}
