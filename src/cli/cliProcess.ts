import { neutraliseControls } from '../core/util/terminalText';
import type { CliIO } from './command';
import { describeFailure } from './failure';
import { processStdio } from './stdio';

/**
 * The CLI's one output function: everything a command prints passes here, so text from files
 * (trajectories, chain ids, test names, logs) can never drive the terminal (docs/reference/cli.md).
 */
export function neutralised(io: CliIO): CliIO {
  const write = io.write?.bind(io);
  return {
    out: (t) => io.out(neutraliseControls(t)),
    // Per piece is the same as on the whole: what it replaces is one UTF-16 unit, or CRLF, which
    // the JSON written in pieces never holds raw.
    ...(write ? { write: (t: string) => write(neutraliseControls(t)) } : {}),
    err: (t) => io.err(neutraliseControls(t)),
    cwd: io.cwd,
  };
}

/** The `chainlens` process: `run` answers the command line and its result is the exit code. */
export function runCliProcess(run: (argv: string[], io: CliIO) => Promise<number>): void {
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
  run(process.argv.slice(2), stdio).then((code) => {
    process.exitCode = code;
  }, fatal);
}
