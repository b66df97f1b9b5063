// A Docker context is followed like the docker CLI follows it: with `docker context use` pointing
// at an engine reached over tcp (here the real local engine behind a loopback proxy that counts
// what passes), `chainlens eval` grades the demo's step 1 through that engine, with no DOCKER_HOST.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli } from '../helpers/builtCli';
import { DEMO_CHAIN, demoRepo } from '../helpers/demoRepo';

const ENGINE_SOCKET = '/var/run/docker.sock';
let proxy: Server;
let connections = 0;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'chainlens-context-'));
  // Half-open both ways, as the engine's own tcp listener is: ChainLens ends a container's stdin
  // (the bundle is written) and then reads its output on the same connection.
  proxy = createServer({ allowHalfOpen: true }, (client) => {
    connections++;
    const engine = connect({ path: ENGINE_SOCKET, allowHalfOpen: true });
    client.pipe(engine).pipe(client);
    const close = () => {
      client.destroy();
      engine.destroy();
    };
    client.on('error', close);
    engine.on('error', close);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli(), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('`docker context use` of a tcp engine: eval reaches it there and grades the step', async () => {
  const config = join(root, 'docker-config');
  const port = (proxy.address() as AddressInfo).port;
  const docker = (...args: string[]) =>
    execFileSync('docker', args, { env: { ...process.env, DOCKER_CONFIG: config }, stdio: 'pipe' });
  docker('context', 'create', 'through-proxy', '--docker', `host=tcp://127.0.0.1:${port}`);
  docker('context', 'use', 'through-proxy');
  const env: NodeJS.ProcessEnv = { ...process.env, DOCKER_CONFIG: config };
  delete env.DOCKER_HOST;
  delete env.DOCKER_CONTEXT;
  const args = ['eval', DEMO_CHAIN, '--repo', demoRepo(), '--mode', 'oracle', '--predictions', 'gold'];
  const r = await runCli(
    [...args, '--dir', join(root, 'work'), '--steps', '1', '--image', 'chainlens/base:bookworm'],
    env,
  );
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /resolved 1\/1 step/);
  assert.ok(connections > 0, "every request went through the context's engine address");

  // A context that is named but does not exist stops eval before it checks anything out.
  const seen = connections;
  const gone = await runCli([...args, '--dir', join(root, 'work-2'), '--steps', '1'], {
    ...env,
    DOCKER_CONTEXT: 'gone',
  });
  assert.equal(gone.code, 1, gone.out);
  assert.match(gone.out, /Docker context 'gone' \(named by DOCKER_CONTEXT\) does not exist/);
  assert.equal(connections, seen);
  assert.equal(existsSync(join(root, 'work-2')), false, 'nothing was checked out');
});
