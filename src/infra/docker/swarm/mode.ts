// `--engine swarm` needs an engine in swarm mode, as a manager: only a manager can create
// services. Checked once, before a batch starts (docs/scaling.md, "Docker Swarm").
import type Docker from 'dockerode';
import { OptionError, UserError } from '../../../core/util/errors';
import { dockerHostDescription } from '../connect';
import { dockerMessage } from '../stepRun';

/** Throws a clear error unless the engine is an active swarm manager. */
export async function assertSwarmManager(docker: Docker): Promise<void> {
  let swarm: { LocalNodeState?: string; ControlAvailable?: boolean } | undefined;
  try {
    swarm = ((await docker.info()) as { Swarm?: typeof swarm }).Swarm;
  } catch (e) {
    throw new UserError(
      `Docker engine at ${dockerHostDescription()} did not describe itself: ${dockerMessage(e)}`,
      'environment',
    );
  }
  const state = swarm?.LocalNodeState || 'inactive';
  if (state !== 'active')
    throw new OptionError(
      'engine',
      `swarm needs the Docker engine at ${dockerHostDescription()} to be in swarm mode, and it is ${state}. ` +
        'Run `docker swarm init` there (one node is a swarm), or `docker swarm join` it to a swarm; or use the local engine.',
      'environment',
    );
  if (!swarm?.ControlAvailable)
    throw new OptionError(
      'engine',
      `swarm needs a swarm manager, and the Docker engine at ${dockerHostDescription()} is a worker node. ` +
        'Point DOCKER_HOST at a manager (`docker node ls` there lists the nodes).',
      'environment',
    );
}
