// The ChainLens tools as an MCP server over stdio (`chainlens mcp`), so agents outside VS Code
// (command-line agents, mini-swe-agent style scripts, VS Code's own MCP client) can attach to the
// run of a work tree. The low-level Server is used on purpose: the tools' JSON Schemas come from
// the one definition in src/core/agent/tools.ts, shared with VS Code's language-model tools.
import { watch, type FSWatcher } from 'node:fs';
import { AGENT_TOOLS } from '../../core/agent/tools';
import { createToolServer, serveToolServerOnStdio } from './toolServer';

export const MCP_SERVER_NAME = 'chainlens';

/** What the server serves: an agent's session on a run (src/app/agent/session.ts). */
export interface AgentSession {
  readonly workspace: { readonly dir: string };
  call(name: string, args: unknown, signal?: AbortSignal): Promise<{ text: string; isError: boolean }>;
  /** Records the agent's own edits since the last call; true when something changed. */
  observeWorkTree(): Promise<unknown>;
}

function createMcpServer(session: AgentSession, version: string) {
  return createToolServer({
    name: MCP_SERVER_NAME,
    version,
    instructions:
      'ChainLens chain run: call get_current_step to read the step to solve (its problem statement), edit the repository it names in place, then call submit_step. ' +
      'Every call and every change to the repository is recorded as your trajectory.',
    tools: AGENT_TOOLS,
    call: (name, args, signal) => session.call(name, args, signal),
  });
}

/**
 * Serves `session` on stdin/stdout until the client closes the stream. Bad messages (not JSON,
 * not JSON-RPC, batches, over the size limit) are answered with JSON-RPC errors and the server
 * stays up (stdioLineTransport.ts).
 */
export async function serveStdio(session: AgentSession, version: string): Promise<void> {
  await serveToolServerOnStdio(createMcpServer(session, version), () => watchWorkTree(session));
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
