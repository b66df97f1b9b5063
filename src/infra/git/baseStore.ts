// One base-only object store per (repository, base commit) in the cache, which every work tree of
// that base borrows instead of copying the history again (issue 39, item 1). The store is one pack
// of exactly the objects reachable from the base commit, written once by `git pack-objects --revs`;
// a work tree borrows it by hard links into its own .git/objects/pack (a copy of the files where
// the cache is on another file system). Why links and not alternates: a work tree stays a whole
// repository of its own, so it still works in a container that mounts only the work tree, after
// the cache is cleared, and when moved; and nothing the work tree writes can reach the store, since
// git never rewrites a pack in place (new objects go to new loose files or packs of the work tree;
// gc writes a new pack and unlinks the old name only). docs/run-state.md, "The work tree's repository".
import {
  copyFileSync,
  constants,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { runGit } from './exec';
import { removeAbandonedPartials } from '../abandonedPartials';
import { writeFileAtomic } from '../files';

/** Where the stores are kept: `<cache>/bases/<repository>-<hash of its path>/<base commit>/`. */
export function baseStoresRoot(cache: string): string {
  return join(cache, 'bases');
}

/** The store of `sha` from the repository at `localSource`; it may not exist yet. */
export function baseStorePath(cache: string, localSource: string, sha: string): string {
  const real = realpathSync(localSource);
  const name =
    basename(real)
      .replace(/\.git$/, '')
      .replace(/[^\w.-]/g, '_') || 'repo';
  const key = createHash('sha256').update(real).digest('hex').slice(0, 12);
  return join(baseStoresRoot(cache), `${name}-${key}`, sha);
}

/** The pack files of a store, the index last: git takes a pack as present once its .idx is there. */
function packFiles(store: string): string[] | null {
  let names: string[];
  try {
    names = readdirSync(store);
  } catch {
    return null;
  }
  const idx = names.find((n) => /^pack-[0-9a-f]+\.idx$/.test(n));
  if (!idx) return null;
  const stem = idx.slice(0, -'.idx'.length);
  if (!names.includes(`${stem}.pack`)) return null;
  return [`${stem}.pack`, ...names.filter((n) => n === `${stem}.rev`), idx];
}

/** Whether the store of `sha` is already there (a work tree of this base was made before). */
export function hasBaseStore(store: string): boolean {
  return packFiles(store) !== null;
}

/**
 * Makes the store of `sha` from `localSource` when it is not there yet: packed into a temporary
 * sibling carrying the pid and renamed into place, so a killed process never leaves a half store
 * under the real name, and two processes making one store at once both end up using one of them.
 */
export async function ensureBaseStore(
  cache: string,
  localSource: string,
  sha: string,
): Promise<{ store: string; made?: string }> {
  const store = baseStorePath(cache, localSource, sha);
  if (hasBaseStore(store)) return { store };
  const repoDir = join(store, '..');
  // The topmost folder made here, so that a checkout that then fails can take back what it added.
  const madeDir = mkdirSync(repoDir, { recursive: true });
  removeAbandonedPartials(repoDir, /\.partial-(\d+)$/);
  sweepStoresOfRemovedRepositories(baseStoresRoot(cache));
  // Atomic: the sweep of another process must never read half a path and take it for a removed one.
  writeFileAtomic(join(repoDir, 'source'), `${realpathSync(localSource)}\n`);
  const partial = `${store}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  try {
    await runGit(['pack-objects', '--revs', '--quiet', join(partial, 'pack')], { cwd: localSource, input: `${sha}\n` });
    try {
      renameSync(partial, store);
    } catch (e) {
      // Another process put the same store in place first: it holds the same objects.
      if (!hasBaseStore(store)) throw e;
      return { store };
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return { store, made: madeDir ?? store };
}

/**
 * Puts the store's pack into the repository at `gitDir` as its own: hard links, or copies where
 * links cannot be made (another file system). The copy may be a reflink where the file system has
 * them. Returns how: 'linked' or 'copied'.
 */
export function borrowBaseStore(store: string, gitDir: string): 'linked' | 'copied' {
  const files = packFiles(store);
  if (!files) throw new Error(`the base store ${store} holds no pack`);
  const packDir = join(gitDir, 'objects', 'pack');
  mkdirSync(packDir, { recursive: true });
  let how: 'linked' | 'copied' = 'linked';
  for (const name of files) {
    const target = join(packDir, name);
    try {
      linkSync(join(store, name), target);
    } catch {
      how = 'copied';
      copyFileSync(join(store, name), target, constants.COPYFILE_FICLONE);
    }
  }
  return how;
}

/**
 * Removes the stores of local repositories that no longer exist (a person's clone deleted, the
 * scratch repositories of tests and benches): nothing can make a work tree from them any more.
 * Work trees that borrowed from them keep their own links. Done only when a new store is made.
 */
function sweepStoresOfRemovedRepositories(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(root, name);
    try {
      const source = readFileSync(join(dir, 'source'), 'utf8').trim();
      if (source && !existsSync(source)) rmSync(dir, { recursive: true, force: true });
    } catch {
      // no source file (being made right now) or not removable: left as it is
    }
  }
}
