// Which engine ChainLens reaches, decided as the docker CLI decides it. The contexts are written by
// the real docker CLI (`docker context create/use` need no engine), into a throw-away DOCKER_CONFIG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'node:https';
import { describeEndpoint, dockerodeOptions, resolveEngineEndpoint } from '../../../src/infra/docker/dockerContext';
import { UserError } from '../../../src/core/util/errors';

function dockerConfig(): { dir: string; docker(...args: string[]): void } {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-docker-config-'));
  return {
    dir,
    docker: (...args) => {
      execFileSync('docker', args, {
        env: { ...process.env, DOCKER_CONFIG: dir, DOCKER_HOST: '', DOCKER_CONTEXT: '' },
        stdio: 'pipe',
      });
    },
  };
}

test('DOCKER_HOST wins over any context, and dockerode reads it itself', () => {
  const c = dockerConfig();
  c.docker('context', 'create', 'remote', '--docker', 'host=tcp://10.1.2.3:2375');
  c.docker('context', 'use', 'remote');
  const e = resolveEngineEndpoint({
    DOCKER_CONFIG: c.dir,
    DOCKER_HOST: 'unix:///run/other.sock',
    DOCKER_CONTEXT: 'remote',
  });
  assert.deepEqual(e, { host: 'unix:///run/other.sock', from: 'DOCKER_HOST' });
  assert.equal(dockerodeOptions(e), undefined);
});

test('no context chosen: the local socket, named to dockerode (its own look for it is a callback)', () => {
  const c = dockerConfig();
  const e = resolveEngineEndpoint({ DOCKER_CONFIG: c.dir });
  assert.equal(e.from, 'default');
  assert.deepEqual(dockerodeOptions(e), { socketPath: e.host.slice('unix://'.length) });
  // Docker Desktop's per-user socket wins where it is, as in dockerode's own look.
  const home = process.env.HOME;
  try {
    process.env.HOME = mkdtempSync(join(tmpdir(), 'chainlens-home-'));
    assert.equal(resolveEngineEndpoint({ DOCKER_CONFIG: c.dir }).host, 'unix:///var/run/docker.sock');
    mkdirSync(join(process.env.HOME, '.docker', 'run'), { recursive: true });
    writeFileSync(join(process.env.HOME, '.docker', 'run', 'docker.sock'), '');
    const desktop = resolveEngineEndpoint({ DOCKER_CONFIG: c.dir });
    assert.deepEqual(dockerodeOptions(desktop), {
      socketPath: join(process.env.HOME, '.docker', 'run', 'docker.sock'),
    });
  } finally {
    process.env.HOME = home;
  }
  c.docker('context', 'create', 'remote', '--docker', 'host=tcp://10.1.2.3:2375');
  assert.equal(resolveEngineEndpoint({ DOCKER_CONFIG: c.dir }).from, 'default', 'created, not in use');
});

test('`docker context use` is followed: a tcp context is reached over http at its host and port', () => {
  const c = dockerConfig();
  c.docker('context', 'create', 'remote', '--docker', 'host=tcp://10.1.2.3:2399');
  c.docker('context', 'use', 'remote');
  const e = resolveEngineEndpoint({ DOCKER_CONFIG: c.dir });
  assert.equal(e.from, 'context');
  assert.equal(e.context, 'remote');
  assert.equal(describeEndpoint(e), "tcp://10.1.2.3:2399 (Docker context 'remote')");
  assert.deepEqual(dockerodeOptions(e), { protocol: 'http', host: '10.1.2.3', port: '2399' });
});

test('DOCKER_CONTEXT overrides the current context, and DOCKER_CONTEXT=default means the local engine', () => {
  const c = dockerConfig();
  c.docker('context', 'create', 'lab', '--docker', 'host=tcp://10.0.0.1:2375');
  c.docker('context', 'create', 'build-box', '--docker', 'host=ssh://me@build-box:2222');
  c.docker('context', 'use', 'lab');
  const b = resolveEngineEndpoint({ DOCKER_CONFIG: c.dir, DOCKER_CONTEXT: 'build-box' });
  assert.equal(b.host, 'ssh://me@build-box:2222');
  const options = dockerodeOptions(b);
  assert.equal(options?.protocol, 'ssh');
  assert.equal(options?.host, 'build-box');
  assert.equal(options?.port, '2222');
  assert.equal(options?.username, 'me');
  assert.equal(resolveEngineEndpoint({ DOCKER_CONFIG: c.dir, DOCKER_CONTEXT: 'default' }).from, 'default');
});

test('a unix socket context is reached at its socket path', () => {
  const c = dockerConfig();
  c.docker('context', 'create', 'rootless', '--docker', 'host=unix:///run/user/1000/docker.sock');
  const e = resolveEngineEndpoint({ DOCKER_CONFIG: c.dir, DOCKER_CONTEXT: 'rootless' });
  assert.deepEqual(dockerodeOptions(e), { socketPath: '/run/user/1000/docker.sock' });
});

test("a context's TLS files make it https with that CA; skip-tls-verify turns verification off", () => {
  const c = dockerConfig();
  // A real certificate (the docker CLI checks that it parses), made by openssl.
  const ca = join(c.dir, 'ca.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=engine.example',
      '-days',
      '1',
      '-keyout',
      join(c.dir, 'ca-key.pem'),
      '-out',
      ca,
    ],
    { stdio: 'ignore' },
  );
  c.docker('context', 'create', 'secure', '--docker', `host=tcp://engine.example:2376,ca=${ca}`);
  const secure = dockerodeOptions(resolveEngineEndpoint({ DOCKER_CONFIG: c.dir, DOCKER_CONTEXT: 'secure' }));
  assert.equal(secure?.protocol, 'https');
  assert.equal(String(secure?.ca), readFileSync(ca, 'utf8'));
  assert.equal((secure as { agent?: unknown }).agent, undefined, 'verified');
  c.docker('context', 'create', 'lax', '--docker', 'host=tcp://engine.example:2376,skip-tls-verify=true');
  const lax = dockerodeOptions(resolveEngineEndpoint({ DOCKER_CONFIG: c.dir, DOCKER_CONTEXT: 'lax' }));
  assert.equal(lax?.protocol, 'https');
  const agent = (lax as { agent?: Agent }).agent;
  assert.ok(agent instanceof Agent);
  assert.equal(agent.options.rejectUnauthorized, false);
});

test('a context that does not exist is named with where it was chosen', () => {
  const c = dockerConfig();
  assert.throws(
    () => resolveEngineEndpoint({ DOCKER_CONFIG: c.dir, DOCKER_CONTEXT: 'gone' }),
    (e: unknown) =>
      e instanceof UserError && /Docker context 'gone' \(named by DOCKER_CONTEXT\) does not exist/.test(e.message),
  );
  writeFileSync(join(c.dir, 'config.json'), JSON.stringify({ currentContext: 'vanished' }));
  assert.throws(
    () => resolveEngineEndpoint({ DOCKER_CONFIG: c.dir }),
    (e: unknown) =>
      e instanceof UserError && e.message.includes(`named by ${join(c.dir, 'config.json')} (currentContext)`),
  );
});

test('a broken config.json is named, not a stack trace', () => {
  const c = dockerConfig();
  writeFileSync(join(c.dir, 'config.json'), '{"currentContext": ');
  assert.throws(
    () => resolveEngineEndpoint({ DOCKER_CONFIG: c.dir }),
    (e: unknown) => e instanceof UserError && e.message.startsWith(`${join(c.dir, 'config.json')} is not valid JSON`),
  );
  writeFileSync(join(c.dir, 'config.json'), JSON.stringify({ currentContext: 7 }));
  assert.throws(() => resolveEngineEndpoint({ DOCKER_CONFIG: c.dir }), /currentContext must be a context name/);
});
