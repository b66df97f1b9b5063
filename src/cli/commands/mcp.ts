import type { CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { AgentFeedbackSchema, type AgentFeedback } from '../../protocol/agent';
import { UserError } from '../../core/util/errors';

const usage = `usage: chainlens mcp [--dir <workdir>] [--agent-name <name>] [--feedback none|summary|full]

Serves the run of <workdir> to a coding agent as an MCP server on stdin/stdout (the Model Context
Protocol, stdio transport). Tools: get_current_step (the problem statement; never the gold patch
or the hidden tests), get_run_status, submit_step, run_tests. Every tool call and every change to
the work tree is recorded as the step's trajectory in
<state folder>/runs/<run>/agent/step-<k>.traj.json (mini-swe-agent 1.1; \`chainlens status\` names the
state folder, outside the work tree), and the step's author
becomes agent-live with the agent's name.

  --agent-name  who the agent is (default: the client's name, else "mcp-agent")
  --feedback    what run_tests may tell the agent, stored in the run: none (default, as in the
                benchmark), summary (resolved + pass/fail counts) or full (every test's status)`;

export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(
      argv,
      { dir: { type: 'string' }, 'agent-name': { type: 'string' }, feedback: { type: 'string' } },
      usage,
    );
    let feedback: AgentFeedback | undefined;
    if (values.feedback !== undefined) {
      const parsed = AgentFeedbackSchema.safeParse(values.feedback);
      if (!parsed.success)
        throw new UserError(`--feedback must be none, summary or full, not '${values.feedback}'\n\n${usage}`, 'usage');
      feedback = parsed.data;
    }
    const { AgentSession } = await import('../../app/agent/session');
    const { serveStdio } = await import('../../infra/mcp/server');
    // Opened before serving so a directory without a run fails at once, with a message on stderr.
    const session = await AgentSession.open({
      dir: values.dir ?? io.cwd,
      agent: values['agent-name'] ?? 'mcp-agent',
      feedback,
    });
    io.err(`chainlens mcp: serving the run in ${session.workspace.dir} to agent '${session.agent}' on stdio`);
    await serveStdio(session, process.env.CHAINLENS_VERSION ?? '0.1.0');
    return 0;
  },
};
