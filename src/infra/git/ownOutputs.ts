// ChainLens's own output folders that a user copied or pointed into a work tree (docs/run-state.md,
// "Nothing of ChainLens in the work tree"). ChainLens never writes there itself, and refuses a
// batch `--run-dir` inside a work tree; but a folder moved there by hand must still never become
// part of a step: its records and logs hold every step's gold patch. Recognised by the batch
// manifest's own format marker, so a user's file that happens to be called manifest.json is not.
import { closeSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BATCH_FORMAT } from '../../protocol/batch';

/** Enough of manifest.json to hold its `"format"` field, a top-level field written near the start. */
const HEAD_BYTES = 4096;

function isBatchManifest(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, head, 0, HEAD_BYTES, 0);
    return new RegExp(`"format"\\s*:\\s*"${BATCH_FORMAT}"`).test(head.subarray(0, n).toString('utf8'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The batch run directories among `untracked` (paths relative to `workTree`, as
 * `git ls-files --others` lists them), relative to the work tree.
 */
export function batchRunDirsAmong(workTree: string, untracked: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const rel of untracked) {
    if (rel !== 'manifest.json' && !rel.endsWith('/manifest.json')) continue;
    const dir = dirname(rel);
    if (dir !== '.' && isBatchManifest(join(workTree, rel))) dirs.add(dir);
  }
  return [...dirs];
}

/** Git pathspecs that add everything but `dirs` (for `git add -A -- …`). */
export function pathspecsWithout(dirs: readonly string[]): string[] {
  return dirs.length === 0 ? [] : ['--', '.', ...dirs.map((d) => `:(exclude,top,literal)${d}`)];
}
