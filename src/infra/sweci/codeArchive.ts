import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { UserError } from '../../core/util/errors';

/**
 * The most a repository archive may unpack to. SWE-CI's repositories are far smaller; a zip bomb
 * (gigabytes of zeros in a few megabytes) would otherwise fill the disk for a minute before
 * failing. yauzl checks every entry's bytes against its declared size, so the declared sizes
 * are what is summed.
 */
export const MAX_UNPACKED_BYTES = 2 * 1024 ** 3;

/**
 * Unpacks a task's repository archive (`code.zip`) into `into`, streaming each entry to disk.
 * An entry that would land outside `into` (absolute, `..`) refuses the archive. Returns the
 * repository's top folder: `into` itself, or its only sub-folder when the archive wraps the
 * repository in one. A refused archive (damaged, escaping, over `maxBytes`) removes what it
 * unpacked into a folder it made.
 */
export async function extractCodeArchive(
  taskId: string,
  zipPath: string,
  into: string,
  maxBytes = MAX_UNPACKED_BYTES,
): Promise<string> {
  const root = resolve(into);
  const made = !existsSync(root);
  try {
    return await unpack(taskId, zipPath, root, maxBytes);
  } catch (e) {
    // A refused archive leaves nothing of itself (its repository holds the task's target commit).
    if (made) rmSync(root, { recursive: true, force: true });
    throw e;
  }
}

async function unpack(taskId: string, zipPath: string, root: string, maxBytes: number): Promise<string> {
  let unpacked = 0;
  const fail = (cause: string) =>
    new UserError(`task '${taskId}': the repository archive ${zipPath} ${cause}`, 'input');
  const zip = await new Promise<yauzl.ZipFile>((ok, ko) =>
    yauzl.open(zipPath, { lazyEntries: true, autoClose: true }, (e, z) =>
      e ? ko(fail(`is not a zip archive (${e.message})`)) : ok(z),
    ),
  );
  await new Promise<void>((ok, ko) => {
    zip.on('error', (e: Error) => ko(fail(`is damaged (${e.message})`)));
    zip.on('end', () => ok());
    zip.on('entry', (entry: yauzl.Entry) => {
      const target = resolve(root, entry.fileName);
      if (target !== root && !target.startsWith(root + sep)) {
        zip.close();
        ko(fail(`holds an entry outside its folder: ${entry.fileName}`));
        return;
      }
      unpacked += entry.uncompressedSize;
      if (unpacked > maxBytes) {
        zip.close();
        ko(fail(`unpacks to more than ${maxBytes} bytes (at ${entry.fileName}); nothing was kept`));
        return;
      }
      if (entry.fileName.endsWith('/')) {
        mkdirSync(target, { recursive: true });
        zip.readEntry();
        return;
      }
      mkdirSync(dirname(target), { recursive: true });
      zip.openReadStream(entry, (e, stream) => {
        if (e) return ko(fail(`is damaged at ${entry.fileName} (${e.message})`));
        // Keep the executable bit (scripts a test may run); everything else is a plain file.
        const mode = (entry.externalFileAttributes >>> 16) & 0o111 ? 0o755 : 0o644;
        pipeline(stream, createWriteStream(target, { mode })).then(
          () => zip.readEntry(),
          (err: Error) => ko(fail(`could not be unpacked at ${entry.fileName} (${err.message})`)),
        );
      });
    });
    zip.readEntry();
  });
  if (existsSync(join(root, '.git'))) return root;
  const top = readdirSync(root).filter((n) => statSync(join(root, n)).isDirectory());
  if (top.length === 1 && existsSync(join(root, top[0], '.git'))) return join(root, top[0]);
  throw fail('holds no git repository (no .git folder at its top)');
}
