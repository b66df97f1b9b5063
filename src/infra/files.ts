import { closeSync, fsyncSync, openSync, renameSync, writeSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { stripBom } from '../core/util/bom';
import { UserError } from '../core/util/errors';

/**
 * Writes a file so that a reader (or a process restarted after SIGKILL) sees either the old
 * content or the new one, never a torn write: write a temp file beside it, fsync, rename.
 */
export function writeFileAtomic(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // the rename error is the one worth reporting
    }
    throw e;
  }
}

/** Reads a text file a person named (without a BOM); a missing or unreadable file is a UserError naming it. */
export function readUserFile(path: string, what = 'file'): string {
  try {
    return stripBom(readFileSync(path, 'utf8'));
  } catch (e) {
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
