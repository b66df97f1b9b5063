// What is on disk under a directory, to prove a refused command wrote nothing: every file and
// directory (dotfiles and .git included) with its size, mtime and content hash.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

export function snapshotDir(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = lstatSync(path);
      const key = relative(root, path);
      if (st.isDirectory()) {
        out[key] = 'dir';
        walk(path);
      } else if (st.isSymbolicLink()) out[key] = `link -> ${readlinkSync(path)}`;
      else
        out[key] =
          `${st.size} ${st.mtimeMs} ${createHash('sha1').update(readFileSync(path)).digest('hex').slice(0, 12)}`;
    }
  };
  walk(root);
  return out;
}
