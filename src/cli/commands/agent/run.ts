import type { CliCommand } from '../../command';
import { ONE_CHAIN_FILE, parseCommandArgs, parseTimeout, requireOption } from '../../args';
import { UserError } from '../../../core/util/errors';
import { runAgentOverChain } from '../../../app/agent/agentRun';
import { parseProfile } from '../evalRun';
import type { AgentStepOutcome } from '../../../protocol/agentLoop';
import { AGENT_OPTIONS, parseAgentImage, parseAgentIn, parseAgentMode, parseAgentTimeout } from './options';

const usage = `usage: chainlens agent run <chain-file> --repo <path|url> --dir <workdir> --mode oracle|seq|seq+mem
                          --agent <command> [--agent-in container|host] [--agent-image <image>]
                          [--agent-timeout <s>] [--chain-id <id>] [--instances <id,...>] [--image <override>] [--timeout <s>]
                          [--profile swebench-v5|swebench-v4] [--condition AA|HA]

Runs <command> (sh -c) once per step of the chain, in <workdir> at the step's start state (Oracle:
base + gold of the earlier steps; Seq and Seq+Mem: what the agent's own earlier steps left), then
grades the step's change (untracked files included) in a fresh container, with no test feedback to
the agent. The command gets CHAINLENS_PROBLEM_STATEMENT (a file holding the problem statement),
CHAINLENS_CHAIN_ID, CHAINLENS_INSTANCE_ID, CHAINLENS_STEP, CHAINLENS_MODE, CHAINLENS_MEMORY_DIR
(one directory for the whole chain in seq+mem, a new empty one per step otherwise) and
CHAINLENS_TRAJECTORY (where it may write its trajectory; kept with the step).
  --agent-in       container (default: a container of --agent-image, default the chain's image,
                   with only the work tree, the memory directory, the problem file and the
                   trajectory folder mounted) or host (as you, in the work tree: it can read your files)
  --agent-timeout  seconds per step (default 3600); the command's process group is then killed and
                   what it left is graded
  --condition      on a CodeThread task (chainlens codethread build), with --mode seq: AA, the agent
                   writes PR1 (graded by the PR1 filter) and PR2 on it; HA, PR1 is the human's
                   (gold) and the agent writes PR2. \`chainlens codethread report <workdir>\` reads the run.
Run it again with the same arguments to continue a run that was stopped. See docs/reference/agents.md.`;

export const agentRunCommand: CliCommand = {
  name: 'agent run',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        repo: { type: 'string' },
        dir: { type: 'string' },
        mode: { type: 'string' },
        agent: { type: 'string' },
        'chain-id': { type: 'string' },
        instances: { type: 'string' },
        condition: { type: 'string' },
        image: { type: 'string' },
        timeout: { type: 'string' },
        profile: { type: 'string' },
        ...AGENT_OPTIONS,
      },
      usage,
      ONE_CHAIN_FILE,
    );
    const mode = parseAgentMode(requireOption(values.mode, '--mode', usage));
    const command = requireOption(values.agent, '--agent', usage);
    if (!command.trim()) throw new UserError('--agent must be a command, not empty', 'usage');
    const agentIn = parseAgentIn(values['agent-in']);
    let condition: 'AA' | 'HA' | undefined;
    if (values.condition !== undefined) {
      const c = values.condition.trim().toUpperCase();
      if (c !== 'AA' && c !== 'HA')
        throw new UserError(
          `--condition must be AA or HA for an agent run (HH and AH have no agent step to run), not '${values.condition}'`,
          'usage',
        );
      condition = c;
    }
    const result = await runAgentOverChain({
      cwd: io.cwd,
      chainFile: positionals[0],
      repo: requireOption(values.repo, '--repo', usage),
      dir: requireOption(values.dir, '--dir', usage),
      mode,
      command,
      agentIn,
      agentImage: parseAgentImage(values['agent-image'], agentIn),
      agentTimeoutS: parseAgentTimeout(values['agent-timeout']),
      chainId: values['chain-id'],
      instances: values.instances,
      condition,
      image: values.image,
      timeoutS: parseTimeout(values.timeout),
      profile: values.profile === undefined ? undefined : parseProfile(values.profile),
      onNote: (line) => io.err(line),
      onStep: (s) => io.err(`step ${s.order} (${s.instance_id}): ${agentText(s.agent)}; ${s.evaluation.status}`),
    });
    const resolved = result.steps.filter((s) => s.evaluation.resolved).length;
    io.out(`agent run ${result.runId} (${mode}) in ${result.dir}: ${resolved}/${result.steps.length} step(s) resolved`);
    for (const s of result.steps)
      io.out(`  ${s.position}. ${s.instance_id}: ${s.evaluation.status}` + ` (${agentText(s.agent)})`);
    if (result.cancelled) return 130;
    return result.steps.some((s) => s.evaluation.error_kind === 'environment') ? 1 : 0;
  },
};

/** "agent exit 0, 12.3 s, $0.42", "agent timed out, 3600 s", or who else wrote the step. */
function agentText(a: AgentStepOutcome | null): string {
  if (!a) return 'PR1 by the original developer (gold)';
  const how = a.timed_out ? 'timed out' : `exit ${a.exit_code ?? a.signal}`;
  return `agent ${how}, ${a.wall_time_s} s${a.cost_usd !== null ? `, $${a.cost_usd}` : ''}`;
}
