import Docker from 'dockerode';
import { UserError } from '../../core/util/errors';
import { describeEndpoint, dockerodeOptions, resolveEngineEndpoint } from './dockerContext';
import { sweepOrphansInBackground } from './orphans';

const PING_TIMEOUT_MS = 10_000;
let cached: { host: string; opened: OpenedDocker } | undefined;

/** A client made, and the same client once the engine has answered its ping. */
export interface OpenedDocker {
  /** For requests sent before the ping's answer (engineAhead.ts): they fail as the ping does. */
  readonly client: Docker;
  /** Resolves once the engine answered; rejects with a UserError saying how to reach one. */
  readonly reachable: Promise<Docker>;
}

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
  try {
    return openDocker().reachable;
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * connectDocker's client before its ping is answered, for requests sent alongside the ping (each
 * on its own connection). Throws when the engine's address cannot be worked out.
 */
export function openDocker(): OpenedDocker {
  const endpoint = resolveEngineEndpoint();
  const host = describeEndpoint(endpoint);
  if (cached?.host === host) return cached.opened;
  const client = new Docker(dockerodeOptions(endpoint));
  const reachable = (async () => {
    try {
      await pingWithin(client, PING_TIMEOUT_MS);
    } catch (e) {
      throw new UserError(
        `Cannot reach the Docker engine at ${host} (${errorText(e)}). Start Docker (Docker Desktop, or \`sudo systemctl start docker\`), ` +
          'or set DOCKER_HOST to an engine that runs (unix:///path/to/docker.sock, tcp://host:2376, ssh://user@host), ' +
          'or pick a Docker context (DOCKER_CONTEXT, `docker context use <name>`).',
        'environment',
      );
    }
    // The first time a process reaches an engine, it clears what killed ChainLens processes left there.
    sweepOrphansInBackground(client);
    return client;
  })();
  const opened = { client, reachable };
  cached = { host, opened };
  reachable.catch(() => {
    if (cached?.opened === opened) cached = undefined;
  });
  return opened;
}
