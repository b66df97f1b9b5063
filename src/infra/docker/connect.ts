import Docker from 'dockerode';
import { UserError } from '../../core/util/errors';
import { sweepOrphansInBackground } from './orphans';

const PING_TIMEOUT_MS = 10_000;
let cached: { host: string; client: Promise<Docker> } | undefined;

/** Where dockerode (docker-modem) will connect: DOCKER_HOST (unix, tcp, ssh, npipe) or the default socket. */
export function dockerHostDescription(): string {
  return (
    process.env.DOCKER_HOST ||
    (process.platform === 'win32' ? 'npipe:////./pipe/docker_engine' : 'unix:///var/run/docker.sock')
  );
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
  const host = dockerHostDescription();
  if (cached?.host === host) return cached.client;
  const client = (async () => {
    const docker = new Docker();
    try {
      await pingWithin(docker, PING_TIMEOUT_MS);
    } catch (e) {
      throw new UserError(
        `Cannot reach the Docker engine at ${host} (${errorText(e)}). Start Docker (Docker Desktop, or \`sudo systemctl start docker\`), ` +
          'or set DOCKER_HOST to an engine that runs (unix:///path/to/docker.sock, tcp://host:2376, ssh://user@host).',
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
