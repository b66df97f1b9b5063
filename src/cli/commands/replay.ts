import type { CliCommand } from '../command';
import { CHAIN_RUN_OPTIONS, ONE_CHAIN_FILE, parseCommandArgs, requireOption } from '../args';
import { parseMode, planRun, startRun } from './checkout';

const usage = `usage: chainlens replay <chain-file> --repo <path|url> --dir <workdir> --mode seq|oracle --predictions <file|gold>
                       [--chain-id <id>] [--instances <id,...>]

Authors every step by the predictions file (or the gold patches) and commits them in turn, no tests.
A step whose patch is empty, missing or does not apply is recorded so and the chain goes on.
If replay is interrupted, running it again (or any command in <workdir>) finishes the run.`;

export const replayCommand: CliCommand = {
  name: 'replay',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        ...CHAIN_RUN_OPTIONS,
      },
      usage,
      ONE_CHAIN_FILE,
    );
    const predictions = requireOption(values.predictions, '--predictions', usage);
    const plan = await planRun(io, {
      chainFile: positionals[0],
      repo: requireOption(values.repo, '--repo', usage),
      dir: requireOption(values.dir, '--dir', usage),
      mode: parseMode(requireOption(values.mode, '--mode', usage)),
      chainId: values['chain-id'],
      instances: values.instances,
      predictions: predictions === 'gold' ? undefined : predictions,
      defaultAuthor: predictions === 'gold' ? 'gold' : 'recorded',
      operation: 'replay',
    });
    return startRun(io, plan);
  },
};
