// One MCP server shape for every set of ChainLens tools (the chain run's, `chainlens mcp`; SWE-CI's,
// `chainlens sweci mcp`): tools listed from their single definition in src/core, calls answered by
// the caller's handler, served over the line transport that answers bad messages with JSON-RPC
// errors (stdioLineTransport.ts). The low-level Server is used on purpose: the JSON Schemas come
// from src/core, shared with VS Code's language-model tools.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaObject } from '../../core/agent/tools';
import { StdioLineTransport } from './stdioLineTransport';

/** What a tool shows an MCP client: the fields both tool sets define. */
export interface ListedTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly readOnly: boolean;
}

export type ToolCallHandler = (
  name: string,
  args: unknown,
  signal: AbortSignal,
) => Promise<{ text: string; isError: boolean }>;

export interface ToolServerSpec {
  readonly name: string;
  readonly version: string;
  readonly instructions: string;
  readonly tools: readonly ListedTool[];
  readonly call: ToolCallHandler;
}

export function createToolServer(spec: ToolServerSpec): Server {
  const server = new Server(
    { name: spec.name, version: spec.version },
    { capabilities: { tools: {} }, instructions: spec.instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: spec.tools.map((t) => ({
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
    const result = await spec.call(request.params.name, request.params.arguments ?? {}, extra.signal);
    return { content: [{ type: 'text' as const, text: result.text }], isError: result.isError };
  });
  return server;
}

/**
 * Serves `server` on stdin/stdout until the client closes the stream. `whileServing` runs once
 * connected and its returned closer runs when the client has gone.
 */
export async function serveToolServerOnStdio(server: Server, whileServing?: () => { close(): void }): Promise<void> {
  const transport = new StdioLineTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  const running = whileServing?.();
  await closed;
  running?.close();
  await server.close().catch(() => undefined);
}
