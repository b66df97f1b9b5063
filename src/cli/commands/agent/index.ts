// `chainlens agent <subcommand>`: a coding agent, as a command, inside the chain loop.
import { commandGroup } from '../../commandGroup';

export const agentCommand = commandGroup(
  'agent',
  `Run any coding agent (a command, run with sh -c) over a whole chain, step by step in one work
tree, in ChainSWE's Oracle, Seq or Seq+Mem mode; each step graded like the SWE-bench harness
(docs/reference/agents.md). For a whole dataset, give the agent to \`chainlens batch --agent\`.`,
  [
    {
      name: 'run',
      summary: 'run an agent command over one chain (oracle, seq, seq+mem) and grade every step',
      load: async () => (await import('./run')).agentRunCommand,
    },
  ],
);
