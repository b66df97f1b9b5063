import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';

/**
 * The evaluation log as it streams out of the container: each chunk goes to the log file and to
 * the listener at once (nothing waits for the end), and is kept for the caller's result.
 */
export class LogSink {
  private readonly file: WriteStream;
  private readonly decoder = new StringDecoder('utf8');
  private readonly parts: string[] = [];

  constructor(
    readonly path: string,
    private readonly onLog?: (chunk: string) => void,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // An evaluation log holds the hidden tests' output: the user's alone, like all run state.
    this.file = createWriteStream(path, { mode: 0o600 });
  }

  write(chunk: Buffer): void {
    this.file.write(chunk);
    this.emit(this.decoder.write(chunk));
  }

  append(text: string): void {
    this.write(Buffer.from(text));
  }

  /** A Writable for docker-modem's demuxStream; stdout and stderr share it, so their order is kept. */
  writable(): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, done) => {
        this.write(chunk);
        done();
      },
    });
  }

  text(): string {
    return this.parts.join('');
  }

  /** Ends the file and waits until its descriptor is closed ('finish' comes before that): nothing is left in flight. */
  async close(): Promise<void> {
    this.emit(this.decoder.end());
    await new Promise<void>((resolve, reject) => {
      this.file.once('error', reject);
      this.file.once('close', () => resolve());
      this.file.end();
    });
  }

  private emit(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.onLog?.(text);
  }
}
