// `chainlens mcp` as a real server process on stdio, fed what a broken or hostile client sends:
// a line that is not JSON, a batch, a message without "jsonrpc", a 12 MB request. Each gets its
// JSON-RPC error (-32700 or -32600, with the request's id when it has one) and the server stays
// up: the requests after them are answered, and it exits 0 only when the client closes stdin.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { builtCli } from '../../helpers/builtCli';
import { runCli } from '../../helpers/cli';
import { makeTinyChain, type TinyChain } from '../../helpers/tinyChain';
import { TopLevelIdScanner } from '../../../src/infra/mcp/topLevelId';

let tiny: TinyChain;
let dir: string;

before(async () => {
  tiny = makeTinyChain();
  dir = join(tiny.root, 'work');
  const r = await runCli(['checkout', tiny.chainFile, '--repo', tiny.repo, '--dir', dir]);
  assert.equal(r.code, 0, r.stderr);
});

after(() => tiny.cleanup());

interface Server {
  child: ChildProcessWithoutNullStreams;
  send(line: string | Buffer): void;
  next(): Promise<{
    jsonrpc: string;
    id: string | number | null;
    result?: unknown;
    error?: { code: number; message: string };
  }>;
  exit: Promise<number | null>;
}

function startServer(): Server {
  const child = spawn(process.execPath, [builtCli(), 'mcp', '--dir', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    send: (line) => child.stdin.write(line),
    async next() {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no answer from the server')), 20_000).unref(),
      );
      const { value, done } = await Promise.race([lines.next(), timeout]);
      if (done) throw new Error('the server closed stdout');
      return JSON.parse(value as string);
    },
    exit,
  };
}

const ping = (id: number | string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) + '\n';

test('malformed JSON, batches and messages without jsonrpc get JSON-RPC errors and the server stays up', async () => {
  const s = startServer();
  s.send('{"jsonrpc": "2.0", "id": 1, "method": \n');
  assert.deepEqual((await s.next()).error?.code, -32700);
  s.send(ping(2));
  assert.deepEqual(await s.next(), { jsonrpc: '2.0', id: 2, result: {} });

  s.send(JSON.stringify([JSON.parse(ping(3))]) + '\n');
  const batch = await s.next();
  assert.equal(batch.error?.code, -32600);
  assert.equal(batch.id, null);
  assert.match(batch.error!.message, /batches are not supported/);

  s.send(JSON.stringify({ id: 4, method: 'ping' }) + '\n');
  const noVersion = await s.next();
  assert.deepEqual([noVersion.id, noVersion.error?.code], [4, -32600]);

  s.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 42 }) + '\n');
  assert.deepEqual((await s.next()).error?.code, -32600);
  s.send('"just a string"\n');
  assert.deepEqual((await s.next()).error?.code, -32600);

  s.send(ping('after'));
  assert.deepEqual(await s.next(), { jsonrpc: '2.0', id: 'after', result: {} });
  s.child.stdin.end();
  assert.equal(await s.exit, 0);
});

test('a 12 MB request is refused by its id, and the next request is answered', async () => {
  const s = startServer();
  const filler = 'x'.repeat(12 * 1024 * 1024);
  // The id comes after the huge params, as a client may serialise it.
  s.send(
    `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_run_status","arguments":{"pad":"${filler}"}},"id":77}\n`,
  );
  const refusal = await s.next();
  assert.equal(refusal.id, 77);
  assert.equal(refusal.error?.code, -32600);
  assert.match(refusal.error!.message, /over this server's limit of 4194304 bytes/);
  s.send(ping(78));
  assert.deepEqual(await s.next(), { jsonrpc: '2.0', id: 78, result: {} });
  s.child.stdin.end();
  assert.equal(await s.exit, 0);
});

test('the id scanner finds only the top-level id, across chunk boundaries, strings and nesting', () => {
  const scan = (text: string, chunk = 3) => {
    const scanner = new TopLevelIdScanner();
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += chunk) scanner.push(bytes.subarray(i, i + chunk));
    return scanner.id;
  };
  assert.equal(scan('{"params":{"id":1,"x":"\\"id\\":2"},"id":"top \\"q\\""}'), 'top "q"');
  assert.equal(scan('{"jsonrpc":"2.0","id":-12.5e1,"params":{}}'), -125);
  assert.equal(scan('{"idx":3,"params":[{"id":4}]}'), null);
  assert.equal(scan('{"id":null,"method":"x"}'), null);
  assert.equal(scan('{"a":"ü€","id":9}', 1), 9);
});
