// Reading a drift labels file (JSONL, docs/reference/drift-taxonomy.md): the one reader both
// front ends use. Streamed line by line, so a file of many labellers' work is never held twice;
// every bad line is reported with file, line and field (src/core/labels/parse.ts).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { LabelFileReader } from '../../core/labels/parse';
import { UserError } from '../../core/util/errors';
import type { DriftLabelRecord } from '../../protocol/labels';

export interface ReadLabelFileOptions {
  /** A file that does not exist yet holds no labels (a run's own labels file before the first label). */
  readonly missingIsEmpty?: boolean;
  /** How the file is named in messages (the path as the person gave it); default the path. */
  readonly shownAs?: string;
}

export async function readLabelFile(path: string, options: ReadLabelFileOptions = {}): Promise<DriftLabelRecord[]> {
  const shown = options.shownAs ?? path;
  const reader = new LabelFileReader(shown);
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((res, rej) => {
    stream.once('open', () => res());
    stream.once('error', rej);
  });
  try {
    await opened;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.missingIsEmpty) return [];
    throw new UserError(
      `${shown}: cannot read the file (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message})`,
    );
  }
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) reader.push(line);
  return reader.finish();
}
