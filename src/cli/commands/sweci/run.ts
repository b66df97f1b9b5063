import { resolve } from 'node:path';
import type { CliCommand } from '../../command';
import { parseCommandArgs, requireOption } from '../../args';
import { runLoop } from '../../../app/sweci/runLoop';
import { positiveInt } from './shared';

const usage = `usage: chainlens sweci run [--dir <workdir>] --architect <command> --programmer <command>
                         [--iterations <n>] [--role-timeout <s>]

Runs SWE-CI's CI loop: per iteration, the Architect command (run with sh -c in the work tree)
reads the gap from $SWECI_GAP (one {"test","description"} per line, like SWE-CI's
non-passed/summary.jsonl) and writes the requirement to $SWECI_REQUIREMENT; the Programmer command
reads $SWECI_REQUIREMENT and edits the work tree; then the iteration is submitted and graded.
Also set: $SWECI_TASK, $SWECI_ITERATION, $SWECI_LIMIT. Stops when the gap is closed, at the
limit, or after --iterations; run it again to go on.`;

export const sweciRunCommand: CliCommand = {
  name: 'sweci run',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(
      argv,
      {
        dir: { type: 'string' },
        architect: { type: 'string' },
        programmer: { type: 'string' },
        iterations: { type: 'string' },
        'role-timeout': { type: 'string' },
      },
      usage,
    );
    const record = await runLoop({
      dir: resolve(io.cwd, values.dir ?? '.'),
      architect: requireOption(values.architect, '--architect', usage),
      programmer: requireOption(values.programmer, '--programmer', usage),
      iterations: positiveInt(values.iterations, '--iterations'),
      roleTimeoutS: positiveInt(values['role-timeout'], '--role-timeout'),
      log: (l) => io.err(l),
      onOutput: (chunk) => io.err(chunk.replace(/\n$/, '')),
    });
    const counts = record.iterations.map((it) => it.run.passed.length).join(' ');
    io.out(
      `task ${record.task.taskId}: ${record.iterations.length} iteration(s), passing ${counts || '-'}` +
        (record.stopped ? `; stopped (${record.stopped})` : ''),
    );
    return 0;
  },
};
