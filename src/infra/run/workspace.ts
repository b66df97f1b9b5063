import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Chain } from '../../protocol/chain';
import { ChainRunEngine, type EngineResult, type StartRunArgs } from '../../core/run/engine';
import { removeAbandonedPartials } from '../abandonedPartials';
import type { EngineLog } from '../../core/run/ports';
import { OptionError, UserError } from '../../core/util/errors';
import { Git } from '../git/git';
import { createWorkTreeFrom, describeRepoSource, type RepoSource } from '../git/mirror';
import { workTreeAtTop } from '../git/repoFiles';
import { injectedFault } from './faults';
import { FileLock } from './runLock';
import { checkoutLockPath } from './stateDir';
import { RunStore } from './store';
import { cleanUnfinishedCheckout, isUnfinishedCheckout } from './unfinishedCheckout';
import { laterHistory } from './laterHistory';

export interface Workspace {
  dir: string;
  git: Git;
  store: RunStore;
  engine: ChainRunEngine;
  /** Cloned just now by prepareWorkTree (so certainly clean). */
  freshClone?: boolean;
  /** What prepareWorkTree created for this clone, so a checkout that fails can take it away again. */
  created?: CreatedPaths;
}

/** The directories a fresh checkout made: the work tree (or only its contents), and missing parents. */
export interface CreatedPaths {
  /** The work tree itself was created (else it existed, empty, and only its contents are new). */
  workTree: boolean;
  /** The topmost parent directory mkdir had to create, if any. */
  topParent?: string;
  /** What the base store of this checkout added to the cache, if it made the store (a failed checkout leaves none). */
  inCache?: string;
}

/** A temporary clone of a checkout that was killed: `.<name>.chainlens-partial-<pid>`. */
const PARTIAL_CLONE = /^\..+\.chainlens-partial-(\d+)$/;

const systemClock = { now: () => new Date() };

/**
 * The engine for an existing work tree (any directory inside it). The clone of a checkout killed
 * before its run started is taken away (unfinishedCheckout.ts) and the open refused, saying so;
 * `reuseClone`: a checkout of that directory, which finishes it instead.
 */
export async function openWorkspace(dir: string, log?: EngineLog, reuseClone = false): Promise<Workspace> {
  const ws = await openAt(dir, log);
  if (!reuseClone && isUnfinishedCheckout(ws.dir, ws.store))
    throw new UserError(cleanUnfinishedCheckout(ws.dir, ws.store), 'state');
  return ws;
}

async function openAt(dir: string, log?: EngineLog): Promise<Workspace> {
  const abs = resolve(dir);
  if (!existsSync(abs)) throw new UserError(`${abs} does not exist`, 'input');
  const atTop = workTreeAtTop(abs);
  if (atTop) return workspaceAt(new Git(atTop.top, { gitDir: atTop.gitDir }), log);
  const probe = new Git(abs);
  let top: string;
  let gitDir: string;
  try {
    // Both in one git process: every command opening a work tree pays for this.
    [top, gitDir] = (await probe.raw(['rev-parse', '--show-toplevel', '--absolute-git-dir'])).split('\n');
  } catch {
    throw new UserError(`${abs} is not a git work tree (check a chain out there with \`chainlens checkout\`)`, 'state');
  }
  return workspaceAt(new Git(top, { gitDir }), log);
}

async function workspaceAt(git: Git, log?: EngineLog): Promise<Workspace> {
  const top = git.dir;
  const store = new RunStore(await git.gitDir(), top, { log });
  return {
    dir: top,
    git,
    store,
    engine: new ChainRunEngine(git, store, systemClock, log, process.pid, injectedFault),
  };
}

const targetLocks = new Map<string, FileLock>();

/**
 * Runs `fn` as the only process making or reusing the work tree at `workdir` (checkout, replay,
 * eval, Open Chain): two of them on one new directory would both clone and race to rename into
 * place. Refuses at once, naming the holder. Nested calls in the same call chain re-enter.
 */
export function holdCheckoutTarget<T>(workdir: string, operation: string, fn: () => Promise<T>): Promise<T> {
  const path = checkoutLockPath(workdir);
  let lock = targetLocks.get(path);
  if (!lock) targetLocks.set(path, (lock = new FileLock(path, `the work tree ${resolve(workdir)}`)));
  return lock.hold(operation, fn).finally(() => removeIfEmpty(dirname(path)));
}

/** The checkout locks' folder once no lock is in it: a failed checkout leaves nothing in the data directory. */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (another checkout holds a lock, or an outer call of ours still does), or gone
  }
}

/**
 * A work tree for `chain` at `workdir`: reused when it already holds the chain's repository
 * (a previous checkout, or the person's own clone), else made from `source` (through the mirror
 * cache for URLs) with history up to the base commit only. A new work tree is made in a temporary
 * sibling and renamed into place, so a killed checkout never leaves a half-made directory that
 * looks usable; the checkout-target lock keeps a second process from racing that rename.
 * `notes`: what a person must be told (a reused repository that holds later history).
 */
export async function prepareWorkTree(
  chain: Chain,
  source: RepoSource,
  workdir: string,
  log: EngineLog = () => {},
): Promise<Workspace & { notes: string[] }> {
  return holdCheckoutTarget(workdir, 'prepare the work tree', async () => {
    const abs = resolve(workdir);
    const exists = existsSync(abs);
    if (exists && !statSync(abs).isDirectory()) throw new OptionError('dir', `${abs} is a file`, 'input');
    const empty = !exists || readdirSync(abs).length === 0;
    if (!empty) return reuseWorkTree(chain, abs, log);
    const topParent = mkdirSync(dirname(abs), { recursive: true });
    for (const name of removeAbandonedPartials(dirname(abs), PARTIAL_CLONE))
      log(`removed ${join(dirname(abs), name)}, the unfinished clone of a checkout that was killed`);
    const partial = join(dirname(abs), `.${basename(abs)}.chainlens-partial-${process.pid}`);
    rmSync(partial, { recursive: true, force: true });
    const created: CreatedPaths = { workTree: !exists, topParent };
    let local: { repo: string; commit: string; madeInCache?: string };
    try {
      local = await createWorkTreeFrom(source, partial, chain.baseCommit, log, abs);
      created.inCache = local.madeInCache;
      if (exists) rmdirSync(abs);
      renameSync(partial, abs);
    } catch (e) {
      removeCreated(abs, { ...created, workTree: false });
      throw e;
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
    // What the clone is made of is known: no git process needs to tell the engine again.
    const git = new Git(abs, { gitDir: join(abs, '.git') });
    git.rememberCommit(chain.baseCommit, local.commit);
    git.rememberCommit(local.commit, local.commit);
    return { ...(await workspaceAt(git, log)), freshClone: true, created, notes: [] };
  });
}

async function reuseWorkTree(chain: Chain, abs: string, log: EngineLog): Promise<Workspace & { notes: string[] }> {
  if (!existsSync(join(abs, '.git')))
    throw new OptionError('dir', `${abs} is not empty and is not a git repository; choose a new directory`, 'input');
  const ws = await openWorkspace(abs, log, true);
  const runId = ws.store.currentRunId();
  const previous = runId ? ws.store.loadChain(runId) : null;
  if (previous && previous.id !== chain.id) {
    throw new OptionError(
      'dir',
      `${abs} holds a run of chain '${previous.id}', not '${chain.id}'; choose a new directory`,
      'state',
    );
  }
  const base = await ws.git.resolveCommit(chain.baseCommit);
  if (!base) {
    throw new UserError(
      `the repository in ${abs} has no commit ${chain.baseCommit} (the chain's base_commit); is it a clone of ${chain.repo}?`,
      'git',
    );
  }
  const later = await laterHistory(ws.git, base);
  const notes = later
    ? [
        `The repository in ${abs} holds ${later.commits} commit(s) after the chain's base commit (on ${later.refs.slice(0, 3).join(', ')}${later.refs.length > 3 ? ', …' : ''}): whoever solves here can read them, future fixes included. For a benchmark, check the chain out into a new directory: ChainLens then copies the history up to the base commit only.`,
      ]
    : [];
  // A work tree whose first checkout never happened (killed in between) has no index: nothing to stash.
  return existsSync(join(await ws.git.gitDir(), 'index')) ? { ...ws, notes } : { ...ws, freshClone: true, notes };
}

/**
 * Takes away what a fresh checkout created (the work tree, parents made for it, and the state
 * folder its run got in the data directory); an existing empty directory stays.
 */
function removeCreated(workTree: string, created: CreatedPaths, store?: RunStore): void {
  // The state folder first: its pointer lives in the work tree, so it could not be found afterwards.
  if (store?.exists) rmSync(store.root, { recursive: true, force: true });
  if (created.workTree) rmSync(workTree, { recursive: true, force: true });
  else if (existsSync(workTree))
    for (const name of readdirSync(workTree)) rmSync(join(workTree, name), { recursive: true, force: true });
  if (created.topParent) rmSync(created.topParent, { recursive: true, force: true });
  // The work tree holds its own links to the store's pack: no other work tree depends on it.
  if (created.inCache) rmSync(created.inCache, { recursive: true, force: true });
}

/**
 * Checks `chain` out into `workdir` and starts a run there, as one writer: the directory (a new
 * one too) and then its run are locked meanwhile, so a second checkout, replay or eval of the same
 * directory is refused at once, naming this one (`operation` is what the lock says it is doing).
 * A checkout that fails (an Oracle start whose gold patches do not apply, a bad start step) leaves
 * nothing behind: a clone made for it is removed again. A work tree that existed before keeps
 * everything it had.
 */
export async function checkoutRun(
  chain: Chain,
  source: RepoSource,
  workdir: string,
  start: Omit<StartRunArgs, 'chain' | 'repoSource' | 'freshClone'>,
  log: EngineLog = () => {},
  operation = 'checkout',
): Promise<{ workspace: Workspace } & EngineResult> {
  return holdCheckoutTarget(workdir, operation, async () => {
    const ws = await prepareWorkTree(chain, source, workdir, log);
    try {
      const result = await ws.store.hold(operation, () =>
        ws.engine.start({
          ...start,
          chain,
          repoSource: describeRepoSource(source),
          freshClone: ws.freshClone,
        }),
      );
      return { workspace: ws, ...result, notes: [...ws.notes, ...result.notes] };
    } catch (e) {
      if (ws.created) removeCreated(ws.dir, ws.created, ws.store);
      throw e;
    }
  });
}
