import type { CliCommand } from '../../command';
import { parseCommandArgs } from '../../args';
import { readGap } from '../../../app/sweci/gap';
import { neutraliseControls } from '../../../core/util/terminalText';

const usage = `usage: chainlens sweci gap [--dir <workdir>] [--json] [--output]

The test gap the Architect works from: the tests the oracle passes that the latest graded state
(the base, before iteration 1) does not, each with how it ended and why. --output adds each
test's failure section from the log; --json prints {taskId, iteration, passing, p0, pStar, entries}.`;

export const sweciGapCommand: CliCommand = {
  name: 'sweci gap',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(
      argv,
      { dir: { type: 'string' }, json: { type: 'boolean' }, output: { type: 'boolean' } },
      usage,
    );
    const view = await readGap(values.dir ?? io.cwd);
    if (values.json) {
      io.out(JSON.stringify(view, null, 2));
      return 0;
    }
    io.out(
      `task ${view.taskId}: ${view.iteration === null ? 'loop stopped' : `iteration ${view.iteration} of at most ${view.limit}`}; ` +
        `${view.passing} passing (p0 ${view.p0}, p* ${view.pStar}); gap ${view.entries.length}`,
    );
    for (const e of view.entries) {
      io.out(`${neutraliseControls(e.test)}  ${neutraliseControls(e.description)}`);
      if (values.output && e.output) io.out(neutraliseControls(e.output).replace(/^/gm, '    '));
    }
    return 0;
  },
};
