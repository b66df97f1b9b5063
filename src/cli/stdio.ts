import type { CliIO } from './command';

/**
 * Writes whole lines (or raw pieces of a long output) to a standard stream. When the reader goes away (`chainlens status | head -1`
 * closes the pipe: EPIPE) the rest of the output is dropped and the command goes on to its end:
 * what it was doing (a report to write, a run to record) must not be cut short by a pager.
 */
function writers(stream: NodeJS.WriteStream): { line: (text: string) => void; raw: (text: string) => void } {
  let open = true;
  stream.on('error', () => {
    open = false;
  });
  return {
    line: (text) => {
      if (open) stream.write(text.endsWith('\n') ? text : text + '\n');
    },
    raw: (text) => {
      if (open) stream.write(text);
    },
  };
}

/** The process's stdout and stderr as the CLI's output (made once, by the `chainlens` entry point). */
export function processStdio(): CliIO {
  const out = writers(process.stdout);
  return { out: out.line, write: out.raw, err: writers(process.stderr).line, cwd: process.cwd() };
}
