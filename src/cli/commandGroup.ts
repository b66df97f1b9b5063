// The CLI's one dispatch: `chainlens <command> [<subcommand>] …`. Every level — the top-level
// commands (main.ts) and each group's subcommands (sweci, study, codethread, labels) — is a table
// of entries loaded on demand, found by name (a typo gets "did you mean"), and `--help` anywhere
// after a command prints that command's own usage.
import { didYouMean } from '../core/util/didYouMean';
import { UserError } from '../core/util/errors';
import type { CliCommand, CliCommandEntry, CliCommandGroup, CliIO } from './command';

/** A group's usage: its synopsis and intro, then one line per subcommand. */
export function commandGroup(name: string, intro: string, subcommands: readonly CliCommandEntry[]): CliCommandGroup {
  const width = Math.max(...subcommands.map((s) => s.name.length));
  const usage = [
    `usage: chainlens ${name} <subcommand> [options]     (chainlens ${name} <subcommand> --help for each)`,
    '',
    intro,
    '',
    ...subcommands.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
  ].join('\n');
  return { name, usage, subcommands };
}

/** The entry of `table` named `name`, or a usage error naming what was typed and the nearest name. */
function findEntry(
  table: readonly CliCommandEntry[],
  name: string | undefined,
  what: 'command' | 'subcommand',
  usage: string,
): CliCommandEntry {
  if (name === undefined) throw new UserError(`missing ${what}\n\n${usage}`, 'usage');
  const entry = table.find((c) => c.name === name);
  if (entry) return entry;
  const names = table.map((c) => c.name);
  const typed = name.startsWith('-')
    ? `expected a ${what} before the flags, not '${name}'`
    : `unknown ${what} '${name}'`;
  throw new UserError(`${typed}${name.startsWith('-') ? '' : didYouMean(name, names)}\n\n${usage}`, 'usage');
}

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/** Runs a loaded command, or for a group the subcommand `argv` names, with `--help` answered by its usage. */
export async function answerCommand(command: CliCommand | CliCommandGroup, argv: string[], io: CliIO): Promise<number> {
  if ('subcommands' in command) {
    const [sub, ...rest] = argv;
    if (sub !== undefined && (isHelp(sub) || sub === 'help')) {
      io.out(command.usage);
      return 0;
    }
    const entry = findEntry(command.subcommands, sub, 'subcommand', command.usage);
    return answerCommand(await entry.load(), rest, io);
  }
  if (argv.some(isHelp)) {
    io.out(command.usage);
    return 0;
  }
  return command.run(argv, io);
}
