import Docker from 'dockerode';
import { UserError } from '../../core/util/errors';
import { describeEndpoint, dockerodeOptions, resolveEngineEndpoint } from './dockerContext';
import { sweepOrphansInBackground } from './orphans';

const PING_TIMEOUT_MS = 10_000;
let cached: { host: string; client: Promise<Docker> } | undefined;

/**
 * Where ChainLens connects, as the docker CLI would: DOCKER_HOST (unix, tcp, ssh, npipe), else the
 * Docker context selected (DOCKER_CONTEXT or `docker context use`), else the local socket.
 */
export function dockerHostDescription(): string {
  return describeEndpoint(resolveEngineEndpoint());
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function pingWithin(docker: Docker, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  try {
    await Promise.race([docker.ping(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A dockerode client for the engine DOCKER_HOST names (docker-modem also reads DOCKER_TLS_VERIFY
 * and DOCKER_CERT_PATH), checked with a ping. Shared per DOCKER_HOST value; a failed connection
 * is not remembered, so starting Docker and retrying works. Connecting starts the sweep of
 * orphaned containers (orphans.ts) in the background.
 */
export function connectDocker(): Promise<Docker> {
  let endpoint;
  try {
    endpoint = resolveEngineEndpoint();
  } catch (e) {
    return Promise.reject(e);
  }
  const host = describeEndpoint(endpoint);
  if (cached?.host === host) return cached.client;
  const client = (async () => {
    const docker = new Docker(dockerodeOptions(endpoint));
    try {
      await pingWithin(docker, PING_TIMEOUT_MS);
    } catch (e) {
      throw new UserError(
        `Cannot reach the Docker engine at ${host} (${errorText(e)}). Start Docker (Docker Desktop, or \`sudo systemctl start docker\`), ` +
          'or set DOCKER_HOST to an engine that runs (unix:///path/to/docker.sock, tcp://host:2376, ssh://user@host), ' +
          'or pick a Docker context (DOCKER_CONTEXT, `docker context use <name>`).',
        'environment',
      );
    }
    // The first time a process reaches an engine, it clears what killed ChainLens processes left there.
    sweepOrphansInBackground(docker);
    return docker;
  })();
  cached = { host, client };
  client.catch(() => {
    if (cached?.client === client) cached = undefined;
  });
  return client;
}
