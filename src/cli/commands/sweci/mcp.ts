import { resolve } from 'node:path';
import type { CliCommand } from '../../command';
import { parseCommandArgs } from '../../args';
import { UserError } from '../../../core/util/errors';
import { SweciRoleSchema } from '../../../protocol/sweci';

const usage = `usage: chainlens sweci mcp [--dir <workdir>] [--role architect|programmer|both] [--agent-name <name>]

Serves the SWE-CI loop of <workdir> to a coding agent as an MCP server on stdin/stdout.
Architect tools: get_gap (failing oracle tests and why), write_requirement. Programmer tools:
get_requirement, submit_iteration (commits, runs the tests, answers passing count, regressions and
gap). --role picks one role's tools (default: both).`;

export const sweciMcpCommand: CliCommand = {
  name: 'sweci mcp',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(
      argv,
      { dir: { type: 'string' }, role: { type: 'string' }, 'agent-name': { type: 'string' } },
      usage,
    );
    const role = SweciRoleSchema.safeParse(values.role ?? 'both');
    if (!role.success)
      throw new UserError(`--role must be architect, programmer or both, not '${values.role}'\n\n${usage}`, 'usage');
    const dir = resolve(io.cwd, values.dir ?? '.');
    const { openTask } = await import('../../../app/sweci/openTask');
    const { callSweciTool } = await import('../../../app/sweci/tools');
    const { serveSweciStdio } = await import('../../../infra/sweci/mcpServer');
    // Opened first so a directory without a SWE-CI run fails at once, on stderr.
    const { record } = await openTask(dir, (l) => io.err(l));
    const agent = values['agent-name'] ?? 'mcp-agent';
    io.err(`chainlens sweci mcp: task ${record.task.taskId} in ${dir}, ${role.data} tools, on stdio`);
    await serveSweciStdio(
      role.data,
      (name, args, signal) => callSweciTool(dir, role.data, agent, name, args, signal),
      process.env.CHAINLENS_VERSION ?? '0.1.0',
    );
    return 0;
  },
};
