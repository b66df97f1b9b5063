// A Docker engine endpoint of one test's own: a unix socket that passes every byte to the real
// engine and back, and keeps what went through, so a test can tell what its ChainLens asked the
// engine (a listing, a removal) from what other ChainLens processes on the machine did meanwhile.
import { connect, createServer, type Server } from 'node:net';

export interface EngineExchange {
  /** The request lines the client sent, in order ("DELETE /v1.47/containers/<id>?force=true …"). */
  readonly requests: string[];
  /** What the engine answered on the same connection (capped). */
  readonly answer: string;
}

export interface EngineProxy {
  /** For DOCKER_HOST or `chainlens.docker.host`. */
  readonly host: string;
  readonly exchanges: EngineExchange[];
  close(): Promise<void>;
}

const CAP = 4 * 1024 * 1024;
const REQUEST_LINE = /(?:^|\r\n)((?:GET|HEAD|POST|PUT|DELETE) \S+ HTTP\/1\.[01])/g;

export function startEngineProxy(socketPath: string, engineSocket = '/var/run/docker.sock'): Promise<EngineProxy> {
  const exchanges: { requests: string[]; answer: string }[] = [];
  const server: Server = createServer((client) => {
    const seen = { requests: [] as string[], answer: '' };
    exchanges.push(seen);
    const engine = connect(engineSocket);
    client.on('data', (d: Buffer) => {
      for (const m of d.toString('latin1').matchAll(REQUEST_LINE)) seen.requests.push(m[1]);
    });
    engine.on('data', (d: Buffer) => {
      if (seen.answer.length < CAP) seen.answer += d.toString('latin1');
    });
    client.pipe(engine).pipe(client);
    client.on('error', () => engine.destroy());
    engine.on('error', () => client.destroy());
  });
  return new Promise((resolve) =>
    server.listen(socketPath, () =>
      resolve({
        host: `unix://${socketPath}`,
        exchanges,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}
