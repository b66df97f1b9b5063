import type { CliCommand } from '../../command';
import { parseCommandArgs } from '../../args';
import { submitIteration } from '../../../app/sweci/submitIteration';
import { positiveInt } from './shared';

const usage = `usage: chainlens sweci submit [--dir <workdir>] [--iteration <i>] [--architect <who>] [--programmer <who>]

Ends the current iteration: commits every change in the work tree (the next iteration starts
there, no reset), runs the target's tests on it in the task's image, and records the passing
tests, the regressions (tests that passed after the previous iteration and do not now) and the
remaining gap. The loop stops when the gap is closed or at the limit.`;

export const sweciSubmitCommand: CliCommand = {
  name: 'sweci submit',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(
      argv,
      {
        dir: { type: 'string' },
        iteration: { type: 'string' },
        architect: { type: 'string' },
        programmer: { type: 'string' },
      },
      usage,
    );
    const record = await submitIteration({
      dir: values.dir ?? io.cwd,
      iteration: positiveInt(values.iteration, '--iteration'),
      architect: values.architect ?? 'human',
      programmer: values.programmer ?? 'human',
      log: (l) => io.err(l),
    });
    const last = record.iterations[record.iterations.length - 1];
    io.out(
      `iteration ${last.iteration}: ${last.run.passed.length} passing, ${last.regressions.length} regression(s), gap ${last.gap.length}` +
        (record.stopped ? `; the loop stopped (${record.stopped})` : ''),
    );
    for (const t of last.regressions) io.out(`  regression: ${t}`);
    if (last.testChangesReset)
      io.out(
        `  tests reset: ${last.testChangesReset.paths.join(', ')} (the Programmer's change is kept in ${last.testChangesReset.diffPath})`,
      );
    if (!last.run.usable) io.out(`  the tests did not run: ${last.run.problem}`);
    if (last.discarded)
      io.out(
        `  its code is discarded; the next iteration starts from ${last.discarded.restoredFrom.slice(0, 10)}, the last code whose tests ran`,
      );
    return 0;
  },
};
