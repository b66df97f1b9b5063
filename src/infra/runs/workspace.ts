import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Chain } from '../../protocol/chain';
import { ChainRunEngine, type EngineResult, type StartRunArgs } from '../../core/run/engine';
import { removeAbandonedPartials } from '../abandonedPartials';
import type { EngineLog } from '../../core/run/ports';
import { UserError } from '../../core/util/errors';
import { Git } from '../git/git';
import { cloneWorkTree, describeRepoSource, ensureLocalSource, type RepoSource } from '../git/mirror';
import { RunStore } from './store';

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
}

/** A temporary clone of a checkout that was killed: `.<name>.chainlens-partial-<pid>`. */
const PARTIAL_CLONE = /^\..+\.chainlens-partial-(\d+)$/;

const systemClock = { now: () => new Date() };

/** Written into run journals, so an engine tells this process's running operations from a dead process's leftovers. */
export const PROCESS_OWNER = `${process.pid}:${randomUUID()}`;

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
  const store = new RunStore(await git.gitDir());
  return {
    dir: top,
    git,
    store,
    engine: new ChainRunEngine(git, store, systemClock, log, process.pid, faultInjectionFromEnv(), PROCESS_OWNER),
  };
}

/**
 * CHAINLENS_FAULT_KILL_AT=<point>[:<n>] makes the process SIGKILL itself at the n-th time (default
 * first) it reaches that engine fault point: the crash tests' way to die between two writes.
 */
function faultInjectionFromEnv(): ((name: string) => void) | undefined {
  const spec = process.env.CHAINLENS_FAULT_KILL_AT;
  if (!spec) return undefined;
  const m = /^(.*?)(?::(\d+))?$/.exec(spec)!;
  const point = m[1];
  let remaining = Number(m[2] ?? '1');
  return (name) => {
    if (name === point && --remaining <= 0) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * A work tree for `chain` at `workdir`: reused when it already holds the chain's repository
 * (a previous checkout, or the person's own clone), else cloned from `source` (through the
 * mirror cache for URLs). A fresh clone goes to a temporary sibling and is renamed into place,
 * so a killed checkout never leaves a half-cloned directory that looks usable.
 */
export async function prepareWorkTree(
  chain: Chain,
  source: RepoSource,
  workdir: string,
  log: EngineLog = () => {},
): Promise<Workspace> {
  const abs = resolve(workdir);
  const exists = existsSync(abs);
  if (exists && !statSync(abs).isDirectory()) throw new UserError(`--dir ${abs} is a file`, 'input');
  const empty = !exists || readdirSync(abs).length === 0;
  if (!empty) {
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
    if (!(await ws.git.resolveCommit(chain.baseCommit))) {
      throw new UserError(
        `the repository in ${abs} has no commit ${chain.baseCommit} (the chain's base_commit); is it a clone of ${chain.repo}?`,
        'git',
      );
    }
    // A clone whose first checkout never happened (killed in between) has no index: nothing to stash.
    return existsSync(join(await ws.git.gitDir(), 'index')) ? ws : { ...ws, freshClone: true };
  }
  const local = await ensureLocalSource(source, chain.baseCommit, log);
  const topParent = mkdirSync(dirname(abs), { recursive: true });
  for (const name of removeAbandonedPartials(dirname(abs), PARTIAL_CLONE))
    log(`removed ${join(dirname(abs), name)}, the unfinished clone of a checkout that was killed`);
  const partial = join(dirname(abs), `.${basename(abs)}.chainlens-partial-${process.pid}`);
  rmSync(partial, { recursive: true, force: true });
  log(`cloning ${describeRepoSource(source)} into ${abs}`);
  const created: CreatedPaths = { workTree: !exists, topParent };
  try {
    await cloneWorkTree(local, partial, describeRepoSource(source));
    if (exists) rmdirSync(abs);
    renameSync(partial, abs);
  } catch (e) {
    removeCreated(abs, { ...created, workTree: false });
    throw e;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return { ...(await workspaceAt(abs, log)), freshClone: true, created };
}

/** Takes away what a fresh checkout created (the clone, and parents made for it); an existing empty directory stays. */
function removeCreated(workTree: string, created: CreatedPaths): void {
  if (created.workTree) rmSync(workTree, { recursive: true, force: true });
  else if (existsSync(workTree))
    for (const name of readdirSync(workTree)) rmSync(join(workTree, name), { recursive: true, force: true });
  if (created.topParent) rmSync(created.topParent, { recursive: true, force: true });
}

/**
 * Checks `chain` out into `workdir` and starts a run there. A checkout that fails (an Oracle
 * start whose gold patches do not apply, a bad start step) leaves nothing behind: a clone made
 * for it is removed again. A work tree that existed before keeps everything it had.
 */
export async function checkoutRun(
  chain: Chain,
  source: RepoSource,
  workdir: string,
  start: Omit<StartRunArgs, 'chain' | 'repoSource' | 'freshClone'>,
  log: EngineLog = () => {},
): Promise<{ workspace: Workspace } & EngineResult> {
  const ws = await prepareWorkTree(chain, source, workdir, log);
  try {
    const result = await ws.engine.start({
      ...start,
      chain,
      repoSource: describeRepoSource(source),
      freshClone: ws.freshClone,
    });
    return { workspace: ws, ...result };
  } catch (e) {
    if (ws.created) removeCreated(ws.dir, ws.created);
    throw e;
  }
}
