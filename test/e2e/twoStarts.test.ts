// `npm start`'s server (scripts/start-code-server.sh) run twice on one machine, as two people do:
// each on its own PORT with its own code-server state folder, both answering; a PORT already taken
// is refused before anything starts, instead of printing a URL of someone else's server.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertProvisioned, repoRoot } from './harness/paths';
import { stopGroup, trackGroup } from './harness/processes';

const scratch = mkdtempSync(join(tmpdir(), 'chainlens-two-starts-'));
const groups: number[] = [];
after(async () => {
  for (const g of groups) await stopGroup(g);
  rmSync(scratch, { recursive: true, force: true });
});

/** A port nothing listens on now, and a server holding it when `hold`. */
function port(hold = false): Promise<{ port: number; server?: Server }> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      if (hold) resolve({ port, server: s });
      else s.close(() => resolve({ port }));
    });
  });
}

const env = (port: number, state: string) => ({
  ...process.env,
  PORT: String(port),
  CHAINLENS_CS_STATE: state,
  CHAINLENS_PROVISIONED: '1',
});

async function answers(port: number, timeoutMs = 120_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

test('two servers side by side, each on its PORT with its own state folder, both answer', async () => {
  assertProvisioned();
  const started: { port: number; state: string }[] = [];
  for (const name of ['alice', 'bob']) {
    const { port: p } = await port();
    const state = join(scratch, name);
    const child = spawn('bash', [join(repoRoot, 'scripts/start-code-server.sh'), scratch], {
      env: env(p, state),
      detached: true,
      stdio: 'ignore',
    });
    groups.push(trackGroup(child));
    // One at a time: each start rebuilds dist/ first.
    assert.ok(await answers(p), `the server of ${name} answers on ${p}`);
    started.push({ port: p, state });
  }
  for (const s of started) {
    assert.ok(await answers(s.port, 5_000), `${s.port} still answers with the other one up`);
    assert.ok(existsSync(join(s.state, 'user-data')), `${s.state} holds that server's user data`);
  }
});

test('a PORT that is taken: refused with a message naming it, exit 1, nothing started', async () => {
  const held = await port(true);
  try {
    const state = join(scratch, 'taken');
    const r = spawnSync('bash', [join(repoRoot, 'scripts/start-code-server.sh'), scratch], {
      env: env(held.port, state),
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`port ${held.port} is in use on 127\\.0\\.0\\.1`));
    assert.doesNotMatch(r.stderr, /ChainLens in code-server: http/, 'no URL printed');
    assert.equal(existsSync(state), false, 'no state folder made');
  } finally {
    held.server?.close();
  }
});
