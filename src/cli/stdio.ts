import { writeSync } from 'node:fs';
import type { CliIO } from './command';

/**
 * Writes whole lines to a standard stream. When the reader goes away (`chainlens status | head -1`
 * closes the pipe: EPIPE) the rest of the output is dropped and the command goes on to its end:
 * what it was doing (a report to write, a run to record) must not be cut short by a pager.
 * Lines go straight to the file descriptor, as process.stdout does on Linux for files, pipes and
 * terminals alike, without making the stream object: that (net.Socket for a pipe) was a tenth of
 * `chainlens --help`'s start. A descriptor left non-blocking by whoever opened it (EAGAIN) gets
 * the rest of the output through the stream, in order.
 */
function lineWriter(fd: number, stream: () => NodeJS.WriteStream): (text: string) => void {
  let open = true;
  let viaStream: NodeJS.WriteStream | null = null;
  return (text) => {
    if (!open) return;
    const line = Buffer.from(text.endsWith('\n') ? text : text + '\n');
    let done = 0;
    while (!viaStream && done < line.length) {
      try {
        done += writeSync(fd, line, done);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') {
          open = false;
          return;
        }
        viaStream = stream();
        viaStream.on('error', () => {
          open = false;
        });
      }
    }
    if (viaStream && done < line.length) viaStream.write(line.subarray(done));
  };
}

/** The process's stdout and stderr as the CLI's output (made once, by the `chainlens` entry point). */
export function processStdio(): CliIO {
  return {
    out: lineWriter(1, () => process.stdout),
    err: lineWriter(2, () => process.stderr),
    cwd: process.cwd(),
  };
}
