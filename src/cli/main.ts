import type { CliIO } from './command';
import { didYouMean } from '../core/util/didYouMean';
import { neutralised } from './cliProcess';
import { commands } from './commands/index';
import { helpExitCode, helpText } from './help';
import { runCommand } from './runCommand';

/**
 * Answers one command line and returns its exit code: the help, the version, or the command it
 * names, loaded only now (runCommand.ts: how a command's failure ends).
 */
export async function main(argv: string[], rawIo: CliIO): Promise<number> {
  const io = neutralised(rawIo);
  const [name, ...rest] = argv;
  const helpCode = helpExitCode(argv);
  if (helpCode !== null) {
    io.out(helpText());
    return helpCode;
  }
  if (name === '--version') {
    io.out(process.env.CHAINLENS_VERSION ?? '0.1.0');
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    const nearest = didYouMean(
      name,
      commands.map((c) => c.name),
    );
    io.err(`chainlens: unknown command '${name}'${nearest}\n\n${helpText()}`);
    return 2;
  }
  return runCommand(name, entry.load, rest, io);
}
