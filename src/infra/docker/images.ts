import type Docker from 'dockerode';
import { UserError } from '../../core/util/errors';
import { connectDocker } from './connect';

/** One event of `docker pull` (the engine's JSON progress messages). */
export interface PullProgress {
  readonly status?: string;
  readonly id?: string;
  readonly progress?: string;
  readonly progressDetail?: { current?: number; total?: number };
}

function statusCode(e: unknown): number | undefined {
  return typeof e === 'object' && e !== null && 'statusCode' in e
    ? Number((e as { statusCode: unknown }).statusCode)
    : undefined;
}

function errorText(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'json' in e) {
    const json = (e as { json?: { message?: string } }).json;
    if (json?.message) return json.message;
  }
  return e instanceof Error ? e.message : String(e);
}

export function imageUnavailableError(image: string, reason: string): UserError {
  return new UserError(
    `Image ${image} is not on this machine and could not be pulled (${reason.trim()}). ` +
      `Provide it with \`docker pull ${image}\` (from a machine that reaches its registry), or \`docker load -i <file>.tar\`, ` +
      'or point ChainLens at another image (the chainlens.image setting or --image).',
    'environment',
  );
}

function pull(docker: Docker, image: string, onProgress?: (e: PullProgress) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    docker.pull(image, {}, (err: unknown, stream: NodeJS.ReadableStream | undefined) => {
      if (err || !stream) return reject(err ?? new Error('no pull stream'));
      docker.modem.followProgress(
        stream,
        (doneErr: unknown) => (doneErr ? reject(doneErr) : resolve()),
        (event: PullProgress) => onProgress?.(event),
      );
    });
  });
}

/**
 * The id of `image` when the engine has it, null when it does not (nothing is pulled): a lookup
 * that can be made before a command has checked its arguments.
 */
export async function lookUpImage(image: string, docker?: Docker): Promise<string | null> {
  const client = docker ?? (await connectDocker());
  try {
    return (await client.getImage(image).inspect()).Id;
  } catch (e) {
    if (statusCode(e) === 404) return null;
    throw new UserError(`Docker could not look up image ${image}: ${errorText(e)}`, 'environment');
  }
}

/**
 * Makes sure `image` is present: nothing to do when it is local, else a pull with progress events.
 * Returns the image's id (what the repository probe's cache is keyed by). `knownId`: the answer of
 * a lookUpImage made already (null: not local), which saves asking again.
 */
export async function ensureImage(
  image: string,
  onProgress?: (e: PullProgress) => void,
  docker?: Docker,
  knownId?: string | null,
): Promise<string> {
  const client = docker ?? (await connectDocker());
  const id = knownId === undefined ? await lookUpImage(image, client) : knownId;
  if (id !== null) return id;
  try {
    await pull(client, image, onProgress);
    return (await client.getImage(image).inspect()).Id;
  } catch (e) {
    throw imageUnavailableError(image, errorText(e));
  }
}
