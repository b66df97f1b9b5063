import { isUserError } from '../core/util/errors';
import { orphanSweepSettled } from '../infra/docker/orphans';
import { setLockHolderLabel } from '../infra/run/runLock';
import type { CliCommand, CliCommandGroup, CliIO } from './command';
import { answerCommand } from './commandGroup';
import { describeFailure } from './failure';

/**
 * Runs the command `name` (loaded by `load`) and returns its exit code (README: 0 success, 1 bad
 * input or state, 2 usage, 70 a ChainLens bug, 130 cancelled). Whatever the command throws ends
 * as a message, never as a stack trace. `io` is already neutralised (cliProcess.ts).
 */
export async function runCommand(
  name: string,
  load: () => Promise<CliCommand | CliCommandGroup>,
  rest: string[],
  io: CliIO,
): Promise<number> {
  // Named in the run's lock while this command changes a run ("chainlens replay: start").
  setLockHolderLabel(`chainlens ${name}`);
  try {
    return await answerCommand(await load(), rest, io);
  } catch (e) {
    const failure = describeFailure(e);
    io.err(`chainlens ${name}: ${failure.message}`);
    for (const d of failure.details) io.err(`  ${d}`);
    if (!isUserError(e) && process.env.CHAINLENS_DEBUG && e instanceof Error && e.stack) io.err(e.stack);
    return failure.code;
  } finally {
    // A command that reached Docker started removing killed processes' containers: let it finish.
    const removed = await orphanSweepSettled();
    if (removed.length)
      io.err(`removed ${removed.length} container(s) left behind by ChainLens processes that were killed`);
  }
}
