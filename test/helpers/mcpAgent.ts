// A scripted agent on the real MCP client: the bundled `chainlens mcp` as a separate process on
// stdio, as a coding agent attaches to it. Every tool answer is kept, to check what it was told.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { builtCli } from './builtCli';

export interface ScriptedAgent {
  client: Client;
  /** Calls a tool; `text` is its answer, `isError` whether it is an error answer. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** Every answer so far. */
  said: string[];
  close(): Promise<void>;
}

export async function startMcpAgent(
  dir: string,
  extra: string[] = [],
  env: Record<string, string> = {},
  name = 'scripted-agent',
): Promise<ScriptedAgent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'mcp', '--dir', dir, '--agent-name', name, ...extra],
    // The SDK passes only a few variables by default; the server must find the same data directory.
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  const said: string[] = [];
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 600_000 })) as {
      content: { type: string; text: string }[];
      isError?: boolean;
    };
    const text = r.content.map((c) => c.text).join('');
    said.push(text);
    return { text, isError: r.isError === true };
  };
  return { client, call, said, close: () => client.close() };
}
