// Refs of a repository this process has just made with `git init`, written as the files git's
// "files" ref backend keeps (gitrepository-layout(5), "refs"): `<commit id>\n` at .git/<ref>, put in
// place from a `<ref>.lock` file as git does. A checkout writes a handful of refs into such a
// repository, each `git update-ref` process costing more than the write itself. Only refs under
// refs/chainlens/ go this way: git keeps no reflog for them (core.logAllRefUpdates = true, which
// `git init` writes into the repository's config, logs only branches, remotes, notes and HEAD).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Whether refs of the repository at `gitDir` can be written as files with the result git would
 * give: the files backend (no reftable), the config `git init` writes, and no configuration from
 * the environment that could ask git for more (GIT_CONFIG_PARAMETERS could set logAllRefUpdates).
 */
export function refsAreFiles(gitDir: string): boolean {
  if (process.env.GIT_CONFIG_PARAMETERS || process.env.GIT_CONFIG_COUNT) return false;
  if (existsSync(join(gitDir, 'reftable')) || existsSync(join(gitDir, 'packed-refs'))) return false;
  try {
    if (!statSync(join(gitDir, 'refs')).isDirectory()) return false;
    const config = readFileSync(join(gitDir, 'config'), 'utf8');
    return /^\s*logallrefupdates = true$/m.test(config) && !/refstorage|logallrefupdates = always/i.test(config);
  } catch {
    return false;
  }
}

/**
 * Sets refs (already validated) to commit ids that exist in the repository, all or none: every
 * lock is taken before any ref moves, as in a git ref transaction.
 */
export function writeRefFiles(gitDir: string, updates: readonly { ref: string; sha: string }[]): void {
  const locked: string[] = [];
  try {
    for (const { ref, sha } of updates) {
      const lock = `${join(gitDir, ref)}.lock`;
      mkdirSync(dirname(lock), { recursive: true });
      // 'wx': a lock another writer holds makes this fail, as it makes git fail.
      writeFileSync(lock, `${sha}\n`, { flag: 'wx' });
      locked.push(lock);
    }
  } catch (e) {
    for (const lock of locked) rmSync(lock, { force: true });
    throw e;
  }
  for (const lock of locked) renameSync(lock, lock.slice(0, -'.lock'.length));
}
