import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, unlinkSync } from 'node:fs';
import { writeFully } from '../files';

/**
 * Creates `path` holding `content`, or throws EEXIST when it exists: like O_EXCL, but the file
 * appears complete or not at all (a fully written temporary file is hard-linked to the name), so a
 * reader never sees a half-written lock or pointer, even after a kill or on a full disk.
 */
export function createExclusive(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    try {
      writeFully(fd, Buffer.from(content, 'utf8'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(tmp, path);
  } finally {
    unlinkSync(tmp);
  }
}
