// Where ChainLens keeps what a solver must not see: the state of each work tree lives in a
// per-user data directory, one folder per work tree, and the work tree keeps only an opaque id
// (<git dir>/chainlens/state) pointing at it. See docs/run-state.md.
//
//   $CHAINLENS_DATA, else $XDG_DATA_HOME/chainlens, else ~/.local/share/chainlens
//     worktrees/<id>/         one work tree's state (RunStore): runs, journal, lock, evaluations
//       worktree.json         which work tree it belongs to (tells a moved tree from a copied one)
//     locks/<hash>.lock       checkout targets being created (a --dir that does not exist yet)
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../../core/util/errors';
import { ensurePrivateDir, writeFileAtomic } from '../files';
import { createExclusive } from './exclusiveFile';

/**
 * A data directory for one call chain instead of the per-user one: a batch keeps the state of
 * its work trees inside its run directory (docs/reference/batch.md), without changing what the
 * rest of the process (a VS Code window, say) uses.
 */
const scopedRoot = new AsyncLocalStorage<string>();

export function withDataRoot<T>(root: string, fn: () => Promise<T>): Promise<T> {
  return scopedRoot.run(resolve(root), fn);
}

export function dataRoot(): string {
  const scoped = scopedRoot.getStore();
  if (scoped) return scoped;
  if (process.env.CHAINLENS_DATA) return resolve(process.env.CHAINLENS_DATA);
  return join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'chainlens');
}

/** The folder ChainLens used inside the repository before (and still uses for the pointer). */
export function pointerDir(gitDir: string): string {
  return join(gitDir, 'chainlens');
}

/** The pointer file: the only ChainLens file a work tree holds (also the VS Code activation event). */
export function pointerPath(gitDir: string): string {
  return join(pointerDir(gitDir), 'state');
}

const ID = /^[a-z0-9-]{8,80}$/;

export function readPointer(gitDir: string): string | null {
  const path = pointerPath(gitDir);
  if (!existsSync(path)) return null;
  const id = readFileSync(path, 'utf8').trim();
  if (!ID.test(id))
    throw new UserError(
      `${path} does not name a ChainLens state folder ('${id.slice(0, 40)}'); delete it to start over`,
      'state',
    );
  return id;
}

export function stateDirOf(id: string): string {
  return join(dataRoot(), 'worktrees', id);
}

/** Lock for creating the work tree `dir` (checkout into a new directory), keyed by its real path. */
export function checkoutLockPath(dir: string): string {
  return join(dataRoot(), 'locks', `${createHash('sha256').update(realTarget(dir)).digest('hex').slice(0, 32)}.lock`);
}

/** `dir` with its nearest existing ancestor's symlinks resolved, so two spellings of one folder share a lock. */
function realTarget(dir: string): string {
  const abs = resolve(dir);
  if (existsSync(abs)) return realpathSync(abs);
  const parent = dirname(abs);
  return parent === abs ? abs : join(realTarget(parent), basename(abs));
}

/** Files of the layout before the data directory: everything sat in <git dir>/chainlens/. */
const LEGACY_ENTRIES = ['current', 'runs', 'journal.json'];

export function hasLegacyState(gitDir: string): boolean {
  return LEGACY_ENTRIES.some((e) => existsSync(join(pointerDir(gitDir), e)));
}

/** A fresh id: readable prefix from the folder name (for a person browsing the data dir), random rest. */
function newId(workTree: string): string {
  const stem = basename(workTree)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${stem ? `${stem}-` : ''}${randomBytes(12).toString('hex')}`;
}

/**
 * The work tree's pointer, created if there is none. Created exclusively: two processes binding
 * the same new work tree at once end up with the same id (the loser reads the winner's).
 */
export function ensurePointer(gitDir: string, workTree: string): string {
  const existing = readPointer(gitDir);
  if (existing) return existing;
  mkdirSync(pointerDir(gitDir), { recursive: true });
  try {
    createExclusive(pointerPath(gitDir), `${newId(workTree)}\n`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return readPointer(gitDir)!;
}

interface Owner {
  gitDir: string;
  workTree: string;
}

/**
 * Checks that state folder `id` belongs to this work tree, and records it if it is new or the
 * work tree moved. A copied work tree (cp -r) carries the same pointer as the original: both
 * would write one state, so the copy is refused with a way out.
 */
export function claimStateDir(id: string, gitDir: string, workTree: string): string {
  const dir = stateDirOf(id);
  tightenStateDir(dir);
  const file = join(dir, 'worktree.json');
  const self = realpathSync(gitDir);
  let owner: Owner | null = null;
  try {
    owner = JSON.parse(readFileSync(file, 'utf8')) as Owner;
  } catch {
    owner = null;
  }
  if (owner && owner.gitDir !== self) {
    let stillThere = false;
    try {
      stillThere = readPointer(owner.gitDir) === id && realpathSync(owner.gitDir) !== self;
    } catch {
      stillThere = false;
    }
    if (stillThere)
      throw new UserError(
        `${workTree} is a copy of the ChainLens work tree ${owner.workTree}: both point at the same run state (${dir}). ` +
          `Check the chain out into a new directory instead, or delete ${pointerPath(gitDir)} here to start over`,
        'state',
      );
  }
  if (!owner || owner.gitDir !== self)
    writeFileAtomic(file, JSON.stringify({ gitDir: self, workTree } satisfies Owner, null, 2) + '\n');
  return dir;
}

/**
 * The data directory and a state folder in it made the user's alone (0700), also when an earlier
 * ChainLens made them 0755: no other user can then read a run's gold patches or hidden tests,
 * whatever the modes of the files inside (docs/run-state.md, "Who can read the state").
 */
function tightenStateDir(dir: string): void {
  if (!existsSync(dir)) return;
  const root = dirname(dirname(dir));
  ensurePrivateDir(root);
  ensurePrivateDir(dir);
}

/**
 * Moves state of the old layout (<git dir>/chainlens/{current,runs,journal.json}) into the data
 * directory, so a work tree made by an earlier ChainLens stops holding the answers. Safe to be
 * killed at any point and to run in two processes at once: the pointer is made first (once),
 * the copy lands under a temporary name and is renamed into place only if no state folder exists
 * yet, and the old files are deleted last; a later open finishes whatever is left.
 * Returns the state folder.
 */
export function migrateLegacyState(gitDir: string, workTree: string): string {
  const id = ensurePointer(gitDir, workTree);
  const dir = stateDirOf(id);
  const legacy = pointerDir(gitDir);
  if (!existsSync(dir)) {
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true, mode: 0o700 });
    for (const entry of LEGACY_ENTRIES) {
      const from = join(legacy, entry);
      if (existsSync(from)) cpSync(from, join(partial, entry), { recursive: true, preserveTimestamps: true });
    }
    try {
      renameSync(partial, dir);
    } catch (e) {
      rmSync(partial, { recursive: true, force: true });
      // Another process finished the same migration first: its copy is as good as ours.
      if (!existsSync(dir)) throw e;
    }
  }
  claimStateDir(id, gitDir, workTree);
  for (const entry of LEGACY_ENTRIES) rmSync(join(legacy, entry), { recursive: true, force: true });
  return dir;
}
