import type Docker from 'dockerode';
import { createReadStream } from 'node:fs';
import { UserError } from '../../core/util/errors';
import { connectDocker } from '../docker';

/**
 * Loads a task's environment image archive (`docker save | gzip`) through the Docker API, as
 * SWE-CI's `docker load -i` does, and returns the image it names. The engine's own refusal (not
 * a tar, a truncated archive) becomes an error naming the task, the archive and the cause.
 */
export async function loadImageArchive(taskId: string, archive: string, docker?: Docker): Promise<string> {
  const engine = docker ?? (await connectDocker());
  const fail = (cause: string) =>
    new UserError(`task '${taskId}': the image archive ${archive} did not load: ${cause}`, 'environment');
  let stream: NodeJS.ReadableStream;
  try {
    stream = await engine.loadImage(createReadStream(archive), { quiet: true });
  } catch (e) {
    throw fail(engineMessage(e));
  }
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', (e: Error) => reject(fail(e.message)));
  });
  const loaded: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let msg: { stream?: string; error?: string; errorDetail?: { message?: string } };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      continue;
    }
    if (msg.error) throw fail(msg.errorDetail?.message ?? msg.error);
    const m = /Loaded image(?: ID)?: (\S+)/.exec(msg.stream ?? '');
    if (m) loaded.push(m[1]);
  }
  if (!loaded.length) throw fail('the engine named no image it loaded');
  return loaded[0];
}

function engineMessage(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'json' in e) {
    const json = (e as { json?: { message?: string } }).json;
    if (json?.message) return json.message;
  }
  return e instanceof Error ? e.message : String(e);
}
