import type { CliIO } from './command';

/**
 * Writes whole lines to a standard stream. When the reader goes away (`chainlens status | head -1`
 * closes the pipe: EPIPE) the rest of the output is dropped and the command goes on to its end:
 * what it was doing (a report to write, a run to record) must not be cut short by a pager.
 */
function lineWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let open = true;
  stream.on('error', () => {
    open = false;
  });
  return (text) => {
    if (!open) return;
    stream.write(text.endsWith('\n') ? text : text + '\n');
  };
}

/** The process's stdout and stderr as the CLI's output (made once, by the `chainlens` entry point). */
export function processStdio(): CliIO {
  return { out: lineWriter(process.stdout), err: lineWriter(process.stderr), cwd: process.cwd() };
}
