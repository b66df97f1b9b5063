import type { CliCommand } from '../command';
import { UserError } from '../../core/util/errors';
import { SWECI_SUBCOMMANDS } from './sweci/subcommands';

const usage = `usage: chainlens sweci <subcommand> [options]     (chainlens sweci <subcommand> --help for each)

SWE-CI tasks: take a repository from a base commit to the tested behaviour of a later oracle
commit through up to 20 iterations of a CI loop (Architect writes a requirement from the test
gap, Programmer changes the code in place), scored by Normalized Change, EvoScore and
zero-regression (docs/sweci.md).

${SWECI_SUBCOMMANDS.map((s) => `  ${s.name.padEnd(12)} ${s.summary}`).join('\n')}`;

export const sweciCommand: CliCommand = {
  name: 'sweci',
  usage,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === '--help' || sub === '-h') {
      if (sub === undefined) throw new UserError(`missing subcommand\n\n${usage}`, 'usage');
      io.out(usage);
      return 0;
    }
    const entry = SWECI_SUBCOMMANDS.find((s) => s.name === sub);
    if (!entry) throw new UserError(`unknown subcommand '${sub}'\n\n${usage}`, 'usage');
    const command = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(command.usage);
      return 0;
    }
    return command.run(rest, io);
  },
};
