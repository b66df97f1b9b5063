// Every CLI subcommand's name and help line, in the order `chainlens --help` lists them: apart
// from the commands' code, so the `chainlens` bin prints the help without loading any of it
// (startup time, docs/reference/cli.md).

export interface CommandSummary {
  readonly name: string;
  /** One line for `chainlens --help`. */
  readonly summary: string;
}

export const commandSummaries: readonly CommandSummary[] = [
  { name: 'validate', summary: 'check a chain file and print one line per problem' },
  { name: 'checkout', summary: 'check a chain out into a work tree and start a Seq or Oracle run' },
  { name: 'status', summary: 'show the chain, mode, current step and every step of the run' },
  { name: 'submit', summary: "commit the current step's work and advance to the next step" },
  { name: 'replay', summary: 'commit every step from a predictions file (or gold) in Seq or Oracle mode' },
  { name: 'eval', summary: "replay a chain and grade every step's tests in a container, like the SWE-bench harness" },
  { name: 'compare', summary: 'compare Oracle and Seq reports of a chain: rates, chain errors, failure fingerprints' },
  { name: 'grade', summary: 'grade an evaluation log like the SWE-bench harness (v5 or v4 rules)' },
  {
    name: 'analyze',
    summary: "compare a step's patch with the gold patch: overshoot, undershoot, Jaccard, drift suggestions",
  },
  { name: 'labels', summary: "drift labels: agreement (Cohen's kappa, confusion table) between two label files" },
  { name: 'trajectory', summary: 'show an agent trajectory (SWE-agent, mini-swe-agent, OpenHands) step by step' },
  {
    name: 'codethread',
    summary: 'build CodeThread two-step tasks (PR0 skeleton, Implementation Task, PR1 filter) and report conditions',
  },
  {
    name: 'batch',
    summary: 'evaluate a whole dataset: many chains x prediction sources x modes, concurrently and resumable',
  },
  {
    name: 'report',
    summary: "a batch run's figures: rates by position with Wilson intervals, Oracle-to-Seq drop, chain errors",
  },
  {
    name: 'evidence',
    summary: "test a batch's chain errors: gold on the Seq start state (poisoned or solvable), culprit steps and hunks",
  },
  {
    name: 'mcp',
    summary: 'serve the run to a coding agent as an MCP server on stdio (tools: current step, status, submit, tests)',
  },
  {
    name: 'agent',
    summary: 'run a coding agent command over a chain (oracle, seq, seq+mem), each step graded in a container',
  },
  { name: 'study', summary: 'run a human study: validate, start/submit a session, export rows, report, withdraw' },
  {
    name: 'sweci',
    summary: 'SWE-CI tasks: init, the Architect/Programmer loop in place, submit iterations, score (EvoScore)',
  },
];
