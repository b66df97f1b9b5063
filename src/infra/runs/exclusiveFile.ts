import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, writeSync } from 'node:fs';

/**
 * Creates `path` holding `content`, or throws EEXIST when it exists: like O_EXCL, but the file
 * appears complete or not at all (a fully written temporary file is hard-linked to the name), so a
 * reader never sees a half-written lock or pointer, even after a kill.
 */
export function createExclusive(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } finally {
    unlinkSync(tmp);
  }
}
