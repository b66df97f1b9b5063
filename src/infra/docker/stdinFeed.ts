// Writing an evaluation's files to a container's stdin (docs/reference/containers.md). A container
// that stopped reading has ended, and how it ended is what counts: writing then stops without an
// error, whoever is writing (the repository copy started ahead, or the evaluation's own files).
import type { Duplex, Readable } from 'node:stream';

/**
 * Writes one chunk and waits until the stream takes more; false once the stream has closed. A
 * closed stream never emits 'drain': waiting for that alone would wait for ever.
 */
export async function writeChunk(stream: Duplex, chunk: Buffer): Promise<boolean> {
  if (stream.destroyed || stream.writableEnded) return false;
  if (stream.write(chunk)) return true;
  await new Promise<void>((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) stream.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) stream.on(event, done);
  });
  return !stream.destroyed;
}

/** Writes all of `source` to `stream` (not ending it); false once the stream has closed. */
export async function writeAll(stream: Duplex, source: Readable): Promise<boolean> {
  for await (const chunk of source) if (!(await writeChunk(stream, chunk as Buffer))) return false;
  return true;
}
