import { commandSummaries } from './commandSummaries';

/** `chainlens --help`: the command table. Printed by the bin itself too (stub.ts), unchanged. */
export function helpText(): string {
  const width = Math.max(...commandSummaries.map((c) => c.name.length), 4);
  return [
    'chainlens: solve chained SWE-bench tasks in place and grade them like the SWE-bench harness',
    '',
    'usage: chainlens <command> [options]   (chainlens <command> --help for details)',
    '',
    ...commandSummaries.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

/** The arguments `main` answers with the help alone: none, --help, -h, help (exit code 2 for none). */
export function helpExitCode(argv: readonly string[]): number | null {
  const [name] = argv;
  if (!name) return 2;
  return name === '--help' || name === '-h' || name === 'help' ? 0 : null;
}
