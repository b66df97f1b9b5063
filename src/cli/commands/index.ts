// Every CLI subcommand, in the order `chainlens --help` lists them. Commands load on demand, so
// `chainlens status` never pays for Docker, tree-sitter or the grading parsers (startup time).
import type { CliCommandEntry } from '../command';

export const commands: CliCommandEntry[] = [
  {
    name: 'validate',
    summary: 'check a chain file and print one line per problem',
    load: async () => (await import('./validate')).validateCommand,
  },
  {
    name: 'checkout',
    summary: 'check a chain out into a work tree and start a Seq or Oracle run',
    load: async () => (await import('./checkout')).checkoutCommand,
  },
  {
    name: 'status',
    summary: 'show the chain, mode, current step and every step of the run',
    load: async () => (await import('./status')).statusCommand,
  },
  {
    name: 'submit',
    summary: "commit the current step's work and advance to the next step",
    load: async () => (await import('./submit')).submitCommand,
  },
  {
    name: 'replay',
    summary: 'commit every step from a predictions file (or gold) in Seq or Oracle mode',
    load: async () => (await import('./replay')).replayCommand,
  },
  {
    name: 'eval',
    summary: "replay a chain and grade every step's tests in a container, like the SWE-bench harness",
    load: async () => (await import('./eval')).evalCommand,
  },
  {
    name: 'compare',
    summary: 'compare Oracle and Seq reports of a chain: rates, chain errors, failure fingerprints',
    load: async () => (await import('./compare')).compareCommand,
  },
  {
    name: 'grade',
    summary: 'grade an evaluation log like the SWE-bench harness (v5 or v4 rules)',
    load: async () => (await import('./grade')).gradeCommand,
  },
  {
    name: 'analyze',
    summary: "compare a step's patch with the gold patch: overshoot, undershoot, Jaccard, drift suggestions",
    load: async () => (await import('./analyze')).analyzeCommand,
  },
  {
    name: 'labels',
    summary: "drift labels: agreement (Cohen's kappa, confusion table) between two label files",
    load: async () => (await import('./labels')).labelsCommand,
  },
  {
    name: 'trajectory',
    summary: 'show an agent trajectory (SWE-agent, mini-swe-agent, OpenHands) step by step',
    load: async () => (await import('./trajectory')).trajectoryCommand,
  },
  {
    name: 'codethread',
    summary: 'build CodeThread two-step tasks (PR0 skeleton, Implementation Task, PR1 filter) and report conditions',
    load: async () => (await import('./codethread')).codethreadCommand,
  },
  {
    name: 'batch',
    summary: 'evaluate a whole dataset: many chains x prediction sources x modes, concurrently and resumable',
    load: async () => (await import('./batch')).batchCommand,
  },
  {
    name: 'report',
    summary: "a batch run's figures: rates by position with Wilson intervals, Oracle-to-Seq drop, chain errors",
    load: async () => (await import('./report')).reportCommand,
  },
  {
    name: 'mcp',
    summary: 'serve the run to a coding agent as an MCP server on stdio (tools: current step, status, submit, tests)',
    load: async () => (await import('./mcp')).mcpCommand,
  },
  {
    name: 'study',
    summary: 'run a human study: validate, start/submit a session, export rows, report, withdraw',
    load: async () => (await import('./study')).studyCommand,
  },
  {
    name: 'sweci',
    summary: 'SWE-CI tasks: init, the Architect/Programmer loop in place, submit iterations, score (EvoScore)',
    load: async () => (await import('./sweci')).sweciCommand,
  },
];
