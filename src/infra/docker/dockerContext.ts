// Which engine the docker CLI would talk to, so that ChainLens talks to the same one: DOCKER_HOST
// when set, else the Docker context DOCKER_CONTEXT names, else the config's current context, else
// the local socket. Contexts are how people keep remote engines (`docker context create …`,
// `docker context use …`); docs/scaling.md, "One engine: local or remote".
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { UserError } from '../../core/util/errors';

export interface EngineEndpoint {
  /** The engine's address as the docker CLI writes it: unix://…, tcp://…, ssh://…, npipe://… */
  readonly host: string;
  /** Where it came from: the environment, a named context, or nothing (the local socket). */
  readonly from: 'DOCKER_HOST' | 'context' | 'default';
  readonly context?: string;
  /** The context's TLS files (contexts/tls/<id>/docker/), when it has any. */
  readonly tls?: { readonly ca?: Buffer; readonly cert?: Buffer; readonly key?: Buffer; readonly skipVerify: boolean };
}

/**
 * The local engine as dockerode would find it: Docker Desktop's per-user socket when there, else
 * the system one. Looked up here, at once: dockerode's own look is a callback, which holds its
 * first request back until whatever the command does next has run (docs/reference/containers.md,
 * "Started ahead").
 */
function localSocket(): string {
  if (process.platform === 'win32') return 'npipe:////./pipe/docker_engine';
  const desktop = join(homedir(), '.docker', 'run', 'docker.sock');
  return `unix://${existsSync(desktop) ? desktop : '/var/run/docker.sock'}`;
}

/** The docker CLI's configuration folder: $DOCKER_CONFIG, else ~/.docker. */
function configDir(env: NodeJS.ProcessEnv): string {
  return env.DOCKER_CONFIG || join(homedir(), '.docker');
}

function readJson(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UserError(`${file} is not valid JSON (${e instanceof Error ? e.message : String(e)})`, 'environment');
  }
}

/** The context the docker CLI would use, or undefined for its "default" (DOCKER_HOST or the local socket). */
function selectedContext(env: NodeJS.ProcessEnv): { name: string; via: string } | undefined {
  if (env.DOCKER_HOST) return undefined;
  if (env.DOCKER_CONTEXT)
    return env.DOCKER_CONTEXT === 'default' ? undefined : { name: env.DOCKER_CONTEXT, via: 'DOCKER_CONTEXT' };
  const config = join(configDir(env), 'config.json');
  if (!existsSync(config)) return undefined;
  const doc = readJson(config) as { currentContext?: unknown };
  if (doc.currentContext === undefined || doc.currentContext === '' || doc.currentContext === 'default')
    return undefined;
  if (typeof doc.currentContext !== 'string')
    throw new UserError(`${config}: currentContext must be a context name (a string)`, 'environment');
  return { name: doc.currentContext, via: `${config} (currentContext)` };
}

function tlsOf(dir: string, skipVerify: boolean): EngineEndpoint['tls'] {
  const file = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : undefined);
  const ca = file('ca.pem');
  const cert = file('cert.pem');
  const key = file('key.pem');
  if (!ca && !cert && !key && !skipVerify) return undefined;
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}), skipVerify };
}

/** The engine the docker CLI would reach with this environment (nothing is contacted). */
export function resolveEngineEndpoint(env: NodeJS.ProcessEnv = process.env): EngineEndpoint {
  if (env.DOCKER_HOST) return { host: env.DOCKER_HOST, from: 'DOCKER_HOST' };
  const selected = selectedContext(env);
  if (!selected) return { host: localSocket(), from: 'default' };
  // The CLI stores a context under the SHA-256 of its name (docker/cli, context store).
  const id = createHash('sha256').update(selected.name).digest('hex');
  const meta = join(configDir(env), 'contexts', 'meta', id, 'meta.json');
  if (!existsSync(meta))
    throw new UserError(
      `Docker context '${selected.name}' (named by ${selected.via}) does not exist: no ${meta}. ` +
        '`docker context ls` lists the contexts; `docker context use default` goes back to the local engine.',
      'environment',
    );
  const doc = readJson(meta) as { Endpoints?: { docker?: { Host?: unknown; SkipTLSVerify?: unknown } } };
  const endpoint = doc.Endpoints?.docker;
  if (typeof endpoint?.Host !== 'string' || endpoint.Host === '')
    throw new UserError(`${meta}: Endpoints.docker.Host must name the engine (e.g. tcp://host:2376)`, 'environment');
  const tls = tlsOf(join(configDir(env), 'contexts', 'tls', id, 'docker'), endpoint.SkipTLSVerify === true);
  return { host: endpoint.Host, from: 'context', context: selected.name, ...(tls ? { tls } : {}) };
}

/**
 * dockerode's options for an endpoint from a context or the local socket; undefined when
 * dockerode's own reading of DOCKER_HOST (and DOCKER_TLS_VERIFY, DOCKER_CERT_PATH) applies.
 */
export function dockerodeOptions(endpoint: EngineEndpoint): Docker.DockerOptions | undefined {
  const { host } = endpoint;
  if (endpoint.from === 'default')
    return host.startsWith('unix://') ? { socketPath: host.slice('unix://'.length) } : undefined;
  if (endpoint.from !== 'context') return undefined;
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) };
  if (host.startsWith('npipe://')) return { socketPath: host.slice('npipe://'.length) };
  let url: URL;
  try {
    url = new URL(host.includes('//') ? host : `tcp://${host}`);
  } catch {
    throw new UserError(`Docker context '${endpoint.context}': '${host}' is not an engine address`, 'environment');
  }
  if (url.protocol === 'ssh:')
    return {
      protocol: 'ssh',
      host: url.hostname,
      ...(url.port ? { port: url.port } : {}),
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      sshOptions: { agent: process.env.SSH_AUTH_SOCK },
    };
  if (url.protocol !== 'tcp:' && url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UserError(
      `Docker context '${endpoint.context}': ${url.protocol}// engines are not supported (unix, tcp, ssh, npipe are)`,
      'environment',
    );
  const tls = endpoint.tls;
  const https = url.protocol === 'https:' || tls !== undefined;
  return {
    protocol: https ? 'https' : 'http',
    host: url.hostname,
    port: url.port || (https ? 2376 : 2375),
    ...(tls?.ca ? { ca: tls.ca } : {}),
    ...(tls?.cert ? { cert: tls.cert } : {}),
    ...(tls?.key ? { key: tls.key } : {}),
    // The context says not to verify the engine's certificate (`skip-tls-verify=true`).
    ...(tls?.skipVerify
      ? { agent: new Agent({ rejectUnauthorized: false, ca: tls.ca, cert: tls.cert, key: tls.key }) }
      : {}),
  };
}

/** How messages name the engine: its address, and the context it came from. */
export function describeEndpoint(endpoint: EngineEndpoint): string {
  return endpoint.from === 'context' ? `${endpoint.host} (Docker context '${endpoint.context}')` : endpoint.host;
}
