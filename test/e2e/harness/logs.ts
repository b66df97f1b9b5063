// Log files of code-server 4.104, under <userDataDir>/logs/<session ts>/:
//   remoteagent.log                         the server (extension management, connections)
//   exthost<N>/remoteexthost.log            extension host N (one per browser connection;
//                                           with --log debug it names each activation)
//   exthost<N>/<publisher.name>/<Channel>.log  createOutputChannel(name, { log: true }) of an extension
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeServer } from './codeServer';

function dirs(parent: string, pattern: RegExp): string[] {
  if (!existsSync(parent)) return [];
  return readdirSync(parent).filter((n) => pattern.test(n) && statSync(join(parent, n)).isDirectory());
}

/** exthost folders of all sessions, oldest first (session folders sort by time, exthost<N> by N). */
export function extensionHostLogDirs(server: CodeServer): string[] {
  const result: string[] = [];
  for (const session of dirs(server.logsDir, /^\d{8}T\d{6}$/).sort()) {
    const sessionDir = join(server.logsDir, session);
    const hosts = dirs(sessionDir, /^exthost\d+$/).sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
    result.push(...hosts.map((h) => join(sessionDir, h)));
  }
  return result;
}

function read(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

export interface LogSource {
  /** An output channel's name (createOutputChannel(name, { log: true })) instead of the host log. */
  channel?: string;
  /** All extension hosts so far instead of only the newest. */
  allHosts?: boolean;
}

/** Text of remoteexthost.log (or of a log output channel) of the newest extension host. */
export function readExtensionHostLog(server: CodeServer, source: LogSource = {}): string {
  const hosts = extensionHostLogDirs(server);
  const chosen = source.allHosts ? hosts : hosts.slice(-1);
  return chosen
    .map((dir) => {
      if (!source.channel) return read(join(dir, 'remoteexthost.log'));
      return dirs(dir, /./)
        .map((ext) => read(join(dir, ext, `${source.channel}.log`)))
        .join('');
    })
    .join('');
}

/** Waits until the log matches and returns the match; the error shows the log's tail. */
export async function waitForLog(
  server: CodeServer,
  pattern: RegExp,
  options: LogSource & { timeoutMs?: number } = {},
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const text = readExtensionHostLog(server, options);
    const match = text.match(pattern);
    if (match) return match;
    if (Date.now() > deadline) {
      const where = options.channel ? `output channel "${options.channel}"` : 'remoteexthost.log';
      throw new Error(`${where} never matched ${pattern}; its end:\n${text.split('\n').slice(-25).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
