// Every CLI subcommand, in the order `chainlens --help` lists them (commandSummaries.ts). Commands
// load on demand, so `chainlens status` never pays for Docker, tree-sitter or the grading parsers
// (startup time).
import type { CliCommand, CliCommandEntry, CliCommandGroup } from '../command';
import { commandSummaries } from '../commandSummaries';

const loaders: Record<string, () => Promise<CliCommand | CliCommandGroup>> = {
  validate: async () => (await import('./validate')).validateCommand,
  checkout: async () => (await import('./checkout')).checkoutCommand,
  status: async () => (await import('./status')).statusCommand,
  submit: async () => (await import('./submit')).submitCommand,
  replay: async () => (await import('./replay')).replayCommand,
  eval: async () => (await import('./eval')).evalCommand,
  compare: async () => (await import('./compare')).compareCommand,
  grade: async () => (await import('./grade')).gradeCommand,
  analyze: async () => (await import('./analyze')).analyzeCommand,
  labels: async () => (await import('./labels/index')).labelsCommand,
  trajectory: async () => (await import('./trajectory')).trajectoryCommand,
  codethread: async () => (await import('./codethread/index')).codethreadCommand,
  batch: async () => (await import('./batch')).batchCommand,
  report: async () => (await import('./report')).reportCommand,
  evidence: async () => (await import('./evidence')).evidenceCommand,
  mcp: async () => (await import('./mcp')).mcpCommand,
  agent: async () => (await import('./agent/index')).agentCommand,
  study: async () => (await import('./study/index')).studyCommand,
  sweci: async () => (await import('./sweci/index')).sweciCommand,
};

export const commands: CliCommandEntry[] = commandSummaries.map((c) => ({ ...c, load: loaders[c.name] }));
