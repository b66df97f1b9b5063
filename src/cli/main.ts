import { isUserError } from '../core/util/errors';
import { neutraliseControls } from '../core/util/terminalText';
import { orphanSweepSettled } from '../infra/docker/orphans';
import type { CliIO } from './command';
import { commands } from './commands/index';
import { setLockHolderLabel } from '../infra/runs/runLock';
import { describeFailure } from './failure';
import { processStdio } from './stdio';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    'chainlens: solve chained SWE-bench tasks in place and grade them like the SWE-bench harness',
    '',
    'usage: chainlens <command> [options]   (chainlens <command> --help for details)',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

/**
 * The CLI's one output function: everything a command prints passes here, so text from files
 * (trajectories, chain ids, test names, logs) can never drive the terminal (docs/reference/cli.md).
 */
function neutralised(io: CliIO): CliIO {
  const write = io.write?.bind(io);
  return {
    out: (t) => io.out(neutraliseControls(t)),
    // per piece is the same as on the whole: what it replaces is one UTF-16 unit, or CRLF, which
    // the JSON written in pieces never holds raw
    ...(write ? { write: (t: string) => write(neutraliseControls(t)) } : {}),
    err: (t) => io.err(neutraliseControls(t)),
    cwd: io.cwd,
  };
}

/**
 * Runs one command and returns its exit code (README: 0 success, 1 bad input or state, 2 usage,
 * 70 a ChainLens bug, 130 cancelled). Whatever the command throws ends as a message, never as a
 * stack trace.
 */
export async function main(argv: string[], rawIo: CliIO): Promise<number> {
  const io = neutralised(rawIo);
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name ? 0 : 2;
  }
  if (name === '--version') {
    io.out(process.env.CHAINLENS_VERSION ?? '0.1.0');
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`chainlens: unknown command '${name}'\n\n${help()}`);
    return 2;
  }
  // Named in the run's lock while this command changes a run ("chainlens replay: start").
  setLockHolderLabel(`chainlens ${name}`);
  try {
    const command = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(command.usage);
      return 0;
    }
    return await command.run(rest, io);
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

/** The `chainlens` process: runs the command named on the command line and sets the exit code. */
export function runCliProcess(): void {
  const stdio = processStdio();
  // Errors outside the command's promise (a stream's 'error' event, a stray rejection) end the
  // same way: one line, no stack trace.
  const fatal = (e: unknown) => {
    const failure = describeFailure(e);
    stdio.err(neutraliseControls(`chainlens: ${failure.message}`));
    process.exit(failure.code);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  main(process.argv.slice(2), stdio).then((code) => {
    process.exitCode = code;
  }, fatal);
}
