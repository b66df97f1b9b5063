import { resolve } from 'node:path';
import type { CliCommand } from '../../command';
import { parseCommandArgs, requireOption } from '../../args';
import { initTask } from '../../../app/sweci/initTask';
import { SweciFailedRunSchema, SweciTestChangesSchema } from '../../../protocol/sweci';
import { oneOf, positiveInt } from './shared';

const usage = `usage: chainlens sweci init <dataset-dir> --task <id> --dir <workdir> [--split default] [--limit 20]
                          [--timeout <s>] [--image <name>] [--failed-run discard|keep]
                          [--test-changes reset|refuse] [--free-requirement] [--json]

Initialises a SWE-CI task the way SWE-CI does: reads metadata/<split>.csv, loads
data/<task>/image.tar.gz into Docker, unpacks data/<task>/code.zip, builds the base (the current
code with the target's tests) and the oracle, runs the tests on both in the task's image, and
takes p0, p* and the gap. Then checks the base out into <workdir> and starts a Seq run with one
step per iteration. A task that fails a check (a bad metadata row, an image archive that does not
load, an oracle whose tests do not pass) is refused and nothing is written.
--limit    iterations at most (SWE-CI: 20)
--timeout  seconds per test run (SWE-CI: 3600)
--image    use this already loaded image instead of loading the archive
--failed-run    an iteration whose test run does not count: discard its code, the next
                iteration starts from the last code whose tests ran (default, as SWE-CI's
                run.py), or keep it
--test-changes  the Programmer's changes under tests/: reset them before grading and record
                it (default), or refuse the submit naming them
--free-requirement  take the Architect's requirement as free text (default: SWE-CI's
                Appendix C shape, an XML document of 1 to 5 items with fixed fields)`;

export const sweciInitCommand: CliCommand = {
  name: 'sweci init',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        task: { type: 'string' },
        dir: { type: 'string' },
        split: { type: 'string' },
        limit: { type: 'string' },
        timeout: { type: 'string' },
        image: { type: 'string' },
        'failed-run': { type: 'string' },
        'test-changes': { type: 'string' },
        'free-requirement': { type: 'boolean' },
        json: { type: 'boolean' },
      },
      usage,
      { min: 1, max: 1, missing: 'expected the SWE-CI dataset folder' },
    );
    const taskId = requireOption(values.task, '--task', usage);
    const dir = requireOption(values.dir, '--dir', usage);
    const limit = positiveInt(values.limit, '--limit');
    const timeoutS = positiveInt(values.timeout, '--timeout');
    const failedRun = oneOf(values['failed-run'], '--failed-run', SweciFailedRunSchema.options);
    const testChanges = oneOf(values['test-changes'], '--test-changes', SweciTestChangesSchema.options);
    const result = await initTask({
      datasetDir: resolve(io.cwd, positionals[0]),
      split: values.split ?? 'default',
      taskId,
      dir: resolve(io.cwd, dir),
      limit,
      timeoutS,
      image: values.image,
      policies: {
        ...(failedRun ? { failedRun } : {}),
        ...(testChanges ? { testChanges } : {}),
        ...(values['free-requirement'] ? { requirement: 'free' as const } : {}),
      },
      log: (l) => io.err(l),
    });
    for (const n of result.notes) io.err(n);
    const { task } = result.record;
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            taskId: task.taskId,
            runId: result.record.runId,
            dir: result.dir,
            stateDir: result.stateDir,
            image: task.image,
            baseCommit: task.baseCommit,
            p0: task.initial.passed.length,
            pStar: task.oracle.passed.length,
            gap: task.oracle.passed.length - task.oracle.passed.filter((t) => task.initial.passed.includes(t)).length,
            limit: task.limit,
            policies: task.policies,
          },
          null,
          2,
        ),
      );
      return 0;
    }
    const initial = new Set(task.initial.passed);
    const gap = task.oracle.passed.filter((t) => !initial.has(t)).length;
    io.out(`task     ${task.taskId} (split ${task.split})`);
    io.out(`run      ${result.record.runId}, Seq, at most ${task.limit} iterations`);
    io.out(`work     ${result.dir}`);
    io.out(`image    ${task.image}`);
    io.out(`p0       ${task.initial.passed.length} tests pass at the base`);
    io.out(`p*       ${task.oracle.passed.length} tests pass at the oracle`);
    io.out(`gap      ${gap} (metadata: ${task.expectedGap})`);
    io.out(`state    ${result.stateDir}`);
    return 0;
  },
};
