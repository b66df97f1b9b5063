import { writeSync } from 'node:fs';
import type { CliIO } from './command';

/**
 * Writes to a standard stream: whole lines, or raw pieces of a long output. When the reader goes
 * away (`chainlens status | head -1` closes the pipe: EPIPE) the rest of the output is dropped and
 * the command goes on to its end: what it was doing (a report to write, a run to record) must not
 * be cut short by a pager.
 * Text goes straight to the file descriptor, as process.stdout does on Linux for files, pipes and
 * terminals alike, without making the stream object: that (net.Socket for a pipe) was a tenth of
 * `chainlens --help`'s start. A descriptor left non-blocking by whoever opened it (EAGAIN) gets
 * the rest of the output through the stream, in order.
 */
function fdWriter(fd: number, stream: () => NodeJS.WriteStream): (text: string) => void {
  let open = true;
  let viaStream: NodeJS.WriteStream | null = null;
  return (text) => {
    if (!open) return;
    const bytes = Buffer.from(text);
    let done = 0;
    while (!viaStream && done < bytes.length) {
      try {
        done += writeSync(fd, bytes, done);
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
    if (viaStream && done < bytes.length) viaStream.write(bytes.subarray(done));
  };
}

const asLine = (write: (text: string) => void) => (text: string) => write(text.endsWith('\n') ? text : text + '\n');

/** The process's stdout and stderr as the CLI's output (made once, by the `chainlens` entry point). */
export function processStdio(): CliIO {
  const out = fdWriter(1, () => process.stdout);
  return {
    out: asLine(out),
    write: out,
    err: asLine(fdWriter(2, () => process.stderr)),
    cwd: process.cwd(),
  };
}
