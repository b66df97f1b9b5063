import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { stripBom } from '../core/util/bom';
import { UserError } from '../core/util/errors';

/** State is the user's alone (docs/run-state.md, "Who can read it"): folders 0700, files 0600. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
/** What a person asked for as output (a report, an export, a study pack): readable as usual. */
const SHARED_FILE = 0o644;

export interface WriteOptions {
  /** An output a person named (report, export, pack), not state: created 0644 and in folders of the usual mode. */
  shared?: boolean;
}

/**
 * Writes a file so that a reader (or a process restarted after SIGKILL) sees either the old
 * content or the new one, never a torn write: write a temp file beside it in full, fsync, rename.
 * A write the disk cannot take (ENOSPC, EDQUOT, EIO) throws naming `path`, removes the temp file
 * and leaves the old content in place: a short file is never renamed into place. `writeSync`
 * may write fewer bytes than asked without an error, so it is called until every byte is written.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array, options: WriteOptions = {}): void {
  const dir = dirname(path);
  if (options.shared) mkdirSync(dir, { recursive: true });
  else mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  let renamed = false;
  try {
    const fd = openSync(tmp, 'w', options.shared ? SHARED_FILE : PRIVATE_FILE);
    try {
      writeFully(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    renamed = true;
  } catch (e) {
    throw namedFor(e, path);
  } finally {
    if (!renamed) removeQuietly(tmp);
  }
}

/** Writes all of `bytes` to `fd`: a short write (a full disk may give one without an error) is continued. */
export function writeFully(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) {
    const n = writeSync(fd, bytes, done, bytes.length - done);
    // 0 bytes for a non-empty request: the device takes no more (write(2) would say ENOSPC next).
    if (n <= 0) throw Object.assign(new Error('no space left on the device'), { code: 'ENOSPC', syscall: 'write' });
    done += n;
  }
}

/** A system error from writing a temp file, told about the file the caller meant (the temp name means nothing to a person). */
function namedFor(e: unknown, path: string): unknown {
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === 'string') {
    err.path = path;
    err.syscall = 'write';
    delete (err as { dest?: string }).dest;
  }
  return e;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // never created, or already gone: nothing to clean up
  }
}

/**
 * Makes `dir` (and its missing parents) 0700, and tightens it when it exists with a looser mode:
 * folders an earlier ChainLens made 0755 become the user's alone on their next use.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (process.platform === 'win32') return;
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) !== 0) chmodSync(dir, PRIVATE_DIR);
}

/**
 * The largest input file read whole: beyond it a string cannot hold it anyway (V8's limit is
 * about 512 MiB of text), and a device or a runaway file would only grow memory until then.
 */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

/**
 * Reads a text file a person named (without a BOM); a missing, unreadable, non-regular (a FIFO,
 * a device such as /dev/zero: reading one would wait or grow without end) or oversized file is a
 * UserError naming it. stat does not open the file, so a FIFO is refused without blocking.
 */
export function readUserFile(path: string, what = 'file'): string {
  try {
    const info = statSync(path);
    if (info.isDirectory()) throw new UserError(`${what} ${path} is a directory`, 'input');
    if (!info.isFile())
      throw new UserError(`${what} ${path} is not a regular file (a pipe or a device); give a file`, 'input');
    if (info.size > MAX_INPUT_BYTES)
      throw new UserError(
        `${what} ${path} is too large (${info.size} bytes; at most ${MAX_INPUT_BYTES} bytes are read)`,
        'input',
      );
    return stripBom(readFileSync(path, 'utf8'));
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'is not readable'
            : (e as Error).message;
    throw new UserError(`${what} ${path} ${reason}`, 'input');
  }
}
