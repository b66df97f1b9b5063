// The SWE-CI loop as an MCP server over stdio (`chainlens sweci mcp`): the tools of
// src/core/sweci/tools.ts for one role (or both), answered by a handler the caller gives (the
// application layer's use cases), so this adapter holds no loop logic.
import { sweciToolsFor } from '../../core/sweci/tools';
import type { SweciRole } from '../../protocol/sweci';
import { createToolServer, serveToolServerOnStdio, type ToolCallHandler } from '../mcp/toolServer';

const INSTRUCTIONS: Record<SweciRole, string> = {
  programmer:
    'SWE-CI Programmer: call get_requirement, change the repository in place so it holds (leave tests/ alone), then call submit_iteration.',
  architect:
    'SWE-CI Architect: call get_gap, then write_requirement with at most five requirements (expected behaviour, not implementation).',
  both: 'SWE-CI loop: get_gap and write_requirement (Architect), then get_requirement, change the code, submit_iteration (Programmer).',
};

/** Serves until the client closes stdin; bad messages get JSON-RPC errors and the server stays up. */
export async function serveSweciStdio(role: SweciRole, handle: ToolCallHandler, version: string): Promise<void> {
  const server = createToolServer({
    name: 'chainlens-sweci',
    version,
    instructions: INSTRUCTIONS[role],
    tools: sweciToolsFor(role),
    call: handle,
  });
  await serveToolServerOnStdio(server);
}
