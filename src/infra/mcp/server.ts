// The ChainLens tools as an MCP server over stdio (`chainlens mcp`), so agents outside VS Code
// (command-line agents, mini-swe-agent style scripts, VS Code's own MCP client) can attach to the
// run of a work tree. The low-level Server is used on purpose: the tools' JSON Schemas come from
// the one definition in src/core/agent/tools.ts, shared with VS Code's language-model tools.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { watch, type FSWatcher } from 'node:fs';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_TOOLS } from '../../core/agent/tools';
import type { AgentSession } from '../agent/session';
import { StdioLineTransport } from './stdioLineTransport';

export const MCP_SERVER_NAME = 'chainlens';

export function createMcpServer(session: AgentSession, version: string): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    {
      capabilities: { tools: {} },
      instructions:
        'ChainLens chain run: call get_current_step to read the step to solve (its problem statement), edit the repository it names in place, then call submit_step. ' +
        'Every call and every change to the repository is recorded as your trajectory.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: AGENT_TOOLS.map((t) => ({
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
    const result = await session.call(request.params.name, request.params.arguments ?? {}, extra.signal);
    return { content: [{ type: 'text' as const, text: result.text }], isError: result.isError };
  });
  return server;
}

/**
 * Serves `session` on stdin/stdout until the client closes the stream. Bad messages (not JSON,
 * not JSON-RPC, batches, over the size limit) are answered with JSON-RPC errors and the server
 * stays up (stdioLineTransport.ts).
 */
export async function serveStdio(session: AgentSession, version: string): Promise<void> {
  const server = createMcpServer(session, version);
  const transport = new StdioLineTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  const watcher = watchWorkTree(session);
  await closed;
  watcher.close();
  await server.close().catch(() => undefined);
}

/**
 * Records the agent's edits as they happen (not only at its next tool call): a recursive watch on
 * the work tree, settled for a moment, then one `git diff` observation. Changes under .git (our
 * own state writes, git's) are ignored.
 */
function watchWorkTree(session: AgentSession, settleMs = 700): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(session.workspace.dir, { recursive: true }, (_event, file) => {
      const name = typeof file === 'string' ? file : '';
      if (name === '.git' || name.startsWith('.git/') || name.startsWith('.git\\')) return;
      clearTimeout(timer);
      timer = setTimeout(() => void session.observeWorkTree(), settleMs);
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // No recursive watch here: edits are still recorded at the agent's next tool call.
  }
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
