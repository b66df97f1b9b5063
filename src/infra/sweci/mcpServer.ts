// The SWE-CI loop as an MCP server over stdio (`chainlens sweci mcp`): the tools of
// src/core/sweci/tools.ts for one role (or both), answered by a handler the caller gives (the
// application layer's use cases), so this adapter holds no loop logic.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { sweciToolsFor } from '../../core/sweci/tools';
import type { SweciRole } from '../../protocol/sweci';
import { StdioLineTransport } from '../mcp/stdioLineTransport';

export type SweciToolHandler = (
  name: string,
  args: unknown,
  signal: AbortSignal,
) => Promise<{ text: string; isError: boolean }>;

export function createSweciMcpServer(role: SweciRole, handle: SweciToolHandler, version: string): Server {
  const server = new Server(
    { name: 'chainlens-sweci', version },
    {
      capabilities: { tools: {} },
      instructions:
        role === 'programmer'
          ? 'SWE-CI Programmer: call get_requirement, change the repository in place so it holds (leave tests/ alone), then call submit_iteration.'
          : role === 'architect'
            ? 'SWE-CI Architect: call get_gap, then write_requirement with at most five requirements (expected behaviour, not implementation).'
            : 'SWE-CI loop: get_gap and write_requirement (Architect), then get_requirement, change the code, submit_iteration (Programmer).',
    },
  );
  const tools = sweciToolsFor(role);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: {
        title: t.title,
        readOnlyHint: t.readOnly,
        destructiveHint: false,
        idempotentHint: t.readOnly,
        openWorldHint: false,
      },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const result = await handle(request.params.name, request.params.arguments ?? {}, extra.signal);
    return { content: [{ type: 'text' as const, text: result.text }], isError: result.isError };
  });
  return server;
}

/** Serves until the client closes stdin; bad messages get JSON-RPC errors and the server stays up. */
export async function serveSweciStdio(role: SweciRole, handle: SweciToolHandler, version: string): Promise<void> {
  const server = createSweciMcpServer(role, handle, version);
  const transport = new StdioLineTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
