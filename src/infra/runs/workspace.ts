import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Chain } from '../../protocol/chain';
import { ChainRunEngine } from '../../core/run/engine';
import type { EngineLog } from '../../core/run/ports';
import { UserError } from '../../core/util/errors';
import { Git } from '../git/git';
import { createWorkTree, describeRepoSource, ensureLocalSource, type RepoSource } from '../git/mirror';
import { injectedFault } from './faults';
import { FileLock } from './runLock';
import { checkoutLockPath } from './stateDir';
import { RunStore } from './store';
import { laterHistory } from './laterHistory';

export interface Workspace {
  dir: string;
  git: Git;
  store: RunStore;
  engine: ChainRunEngine;
  /** Cloned just now by prepareWorkTree (so certainly clean). */
  freshClone?: boolean;
}

const systemClock = { now: () => new Date() };

/** The engine for an existing work tree (any directory inside it). */
export async function openWorkspace(dir: string, log?: EngineLog): Promise<Workspace> {
  const abs = resolve(dir);
  if (!existsSync(abs)) throw new UserError(`${abs} does not exist`, 'input');
  const probe = new Git(abs);
  let top: string;
  try {
    top = (await probe.raw(['rev-parse', '--show-toplevel'])).trim();
  } catch {
    throw new UserError(`${abs} is not a git work tree (check a chain out there with \`chainlens checkout\`)`, 'state');
  }
  return workspaceAt(top, log);
}

async function workspaceAt(top: string, log?: EngineLog): Promise<Workspace> {
  const git = new Git(top);
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
  return lock.hold(operation, fn);
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
    if (exists && !statSync(abs).isDirectory()) throw new UserError(`--dir ${abs} is a file`, 'input');
    const empty = !exists || readdirSync(abs).length === 0;
    if (!empty) return reuseWorkTree(chain, abs, log);
    const local = await ensureLocalSource(source, chain.baseCommit, log);
    mkdirSync(dirname(abs), { recursive: true });
    const partial = join(dirname(abs), `.${basename(abs)}.chainlens-partial-${process.pid}`);
    rmSync(partial, { recursive: true, force: true });
    log(`copying the history of ${describeRepoSource(source)} up to ${chain.baseCommit.slice(0, 12)} into ${abs}`);
    try {
      await createWorkTree(local, partial, chain.baseCommit);
      if (exists) rmdirSync(abs);
      renameSync(partial, abs);
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
    return { ...(await workspaceAt(abs, log)), freshClone: true, notes: [] };
  });
}

async function reuseWorkTree(chain: Chain, abs: string, log: EngineLog): Promise<Workspace & { notes: string[] }> {
  if (!existsSync(join(abs, '.git')))
    throw new UserError(`--dir ${abs} is not empty and is not a git repository; choose a new directory`, 'input');
  const ws = await openWorkspace(abs, log);
  const runId = ws.store.currentRunId();
  const previous = runId ? ws.store.loadChain(runId) : null;
  if (previous && previous.id !== chain.id) {
    throw new UserError(
      `--dir ${abs} holds a run of chain '${previous.id}', not '${chain.id}'; choose a new directory`,
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
