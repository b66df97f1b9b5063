// `chainlens sweci <subcommand>`: one file per subcommand beside this table, loaded on demand.
import { commandGroup } from '../../commandGroup';

export const sweciCommand = commandGroup(
  'sweci',
  `SWE-CI tasks: take a repository from a base commit to the tested behaviour of a later oracle
commit through up to 20 iterations of a CI loop (Architect writes a requirement from the test
gap, Programmer changes the code in place), scored by Normalized Change, EvoScore and
zero-regression (docs/sweci.md).`,
  [
    {
      name: 'init',
      summary: 'load a task (image, repository), run the tests at base and oracle, start the run',
      load: async () => (await import('./init')).sweciInitCommand,
    },
    {
      name: 'gap',
      summary: 'the test gap the Architect works from: failing oracle tests and their output',
      load: async () => (await import('./gap')).sweciGapCommand,
    },
    {
      name: 'requirement',
      summary: "write (--file) or show the current iteration's requirement document",
      load: async () => (await import('./requirement')).sweciRequirementCommand,
    },
    {
      name: 'submit',
      summary: 'end the iteration: commit the work tree, run the tests, record passing set and regressions',
      load: async () => (await import('./submit')).sweciSubmitCommand,
    },
    {
      name: 'run',
      summary: 'run the CI loop with an Architect and a Programmer command until the gap closes or the limit',
      load: async () => (await import('./run')).sweciRunCommand,
    },
    {
      name: 'score',
      summary: 'Normalized Change, EvoScore (γ table 0.8-1.2), zero-regression and solved, per task and across tasks',
      load: async () => (await import('./score')).sweciScoreCommand,
    },
    {
      name: 'mcp',
      summary: 'serve the loop to an agent over MCP on stdio (get_gap, write/get_requirement, submit_iteration)',
      load: async () => (await import('./mcp')).sweciMcpCommand,
    },
  ],
);
