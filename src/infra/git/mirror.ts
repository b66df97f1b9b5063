import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { OptionError, UserError } from '../../core/util/errors';
import { cleanGitError } from './git';
import { runGit, runGitPipe } from './exec';
import { removeAbandonedPartials } from '../abandonedPartials';
import { borrowBaseStore, ensureBaseStore } from './baseStore';

/** A repository source a person gave: a local path, or a URL git can clone. */
export type RepoSource = { kind: 'path'; path: string } | { kind: 'url'; url: string };

const URL_LIKE = /^(?:https?|ssh|git|file):\/\/|^[\w.-]+@[\w.-]+:/;

export function parseRepoSource(value: string, cwd: string): RepoSource {
  if (value.startsWith('-')) throw new OptionError('repo', `'${value}' is not a path or URL`);
  if (URL_LIKE.test(value)) return { kind: 'url', url: value };
  const path = resolve(cwd, value);
  if (!existsSync(path) || !statSync(path).isDirectory())
    throw new UserError(`the repository ${path} does not exist (give a local git repository or a git URL)`, 'input');
  return { kind: 'path', path };
}

export function describeRepoSource(source: RepoSource): string {
  return source.kind === 'path' ? source.path : source.url;
}

/** Where mirrors of remote repositories are kept, so reopening a chain needs no network. */
export function cacheRoot(): string {
  return process.env.CHAINLENS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'chainlens');
}

function mirrorPath(url: string): string {
  const name = url
    .replace(/\.git$/, '')
    .split(/[/:]/)
    .filter(Boolean)
    .slice(-2)
    .join('-')
    .replace(/[^\w.-]/g, '_');
  return join(cacheRoot(), 'mirrors', `${name}-${createHash('sha256').update(url).digest('hex').slice(0, 12)}.git`);
}

/** The full id of the commit `rev` names in `gitDir`, or null: one git process answers both "is it there" and "which is it". */
async function commitIn(gitDir: string, rev: string): Promise<string | null> {
  try {
    return (
      (
        await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { cwd: gitDir })
      ).trim() || null
    );
  } catch {
    return null;
  }
}

/**
 * The local repository to clone the work tree from, holding `commit`. A local path is used as
 * is; a URL goes through a bare mirror under cacheRoot(): made once (cloned to a temp name and
 * renamed, so a killed clone never leaves a half mirror), fetched only when `commit` is missing.
 */
export async function ensureLocalSource(
  source: RepoSource,
  commit: string,
  log: (line: string) => void = () => {},
): Promise<string> {
  return (await ensureLocalCommit(source, commit, log)).repo;
}

/** ensureLocalSource, and the full id of `commit` there (for createWorkTree, which then need not ask again). */
export async function ensureLocalCommit(
  source: RepoSource,
  commit: string,
  log: (line: string) => void = () => {},
): Promise<{ repo: string; commit: string }> {
  if (source.kind === 'path') {
    const sha = await commitIn(source.path, commit);
    if (!sha) {
      throw new UserError(`commit ${commit} is not in the repository at ${source.path}`, 'git', [
        "the chain's base_commit must exist there: fetch it into that repository, or give the upstream URL as the repository",
      ]);
    }
    return { repo: source.path, commit: sha };
  }
  const mirror = mirrorPath(source.url);
  if (!existsSync(mirror)) {
    mkdirSync(join(cacheRoot(), 'mirrors'), { recursive: true });
    removeAbandonedPartials(join(cacheRoot(), 'mirrors'), /\.git\.partial-(\d+)$/);
    const partial = `${mirror}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    log(`cloning ${source.url} into the mirror cache (${mirror})`);
    try {
      await runGit(['clone', '--mirror', '--quiet', '--', source.url, partial], { cwd: cacheRoot() });
    } catch (e) {
      rmSync(partial, { recursive: true, force: true });
      throw new UserError(`could not clone ${source.url}: ${cleanGitError(e)}`, 'git');
    }
    renameSync(partial, mirror);
  }
  let sha = await commitIn(mirror, commit);
  if (!sha) {
    log(`fetching ${source.url} into the mirror cache (commit ${commit.slice(0, 10)} is missing)`);
    try {
      await runGit(['fetch', '--quiet', '--prune', 'origin'], { cwd: mirror });
    } catch (e) {
      throw new UserError(
        `commit ${commit} is not in the cached mirror of ${source.url} and fetching failed: ${cleanGitError(e)}`,
        'git',
      );
    }
    sha = await commitIn(mirror, commit);
    if (!sha) throw new UserError(`commit ${commit} is not in ${source.url}`, 'git');
  }
  return { repo: mirror, commit: sha };
}

/**
 * Makes `workdir` a repository holding exactly the history up to `baseCommit`, fetched from
 * `localSource`: no branches, tags or remote of the source, no reflog, no FETCH_HEAD, and no
 * object of a later commit (a clone would carry the source's future fix commits, which a solver
 * could read with `git log --all`; SWE-bench images hold no future history either). The only ref
 * is refs/chainlens/base until the run's branch exists. Nothing is checked out: the run's first
 * step is checked out once, straight at its start state; until then the repository has no index,
 * which workspace.ts reads as "never checked out", not as deleted files. See docs/run-state.md.
 */
export async function createWorkTree(
  localSource: string,
  workdir: string,
  baseCommit: string,
  /** The full commit id ensureLocalCommit found for `baseCommit`, when the caller has it. */
  resolved?: string,
): Promise<void> {
  try {
    // The chain may name the commit by an abbreviated id; fetch wants the full one.
    const sha =
      resolved ??
      (
        await runGit(['rev-parse', '--verify', '--end-of-options', `${baseCommit}^{commit}`], { cwd: localSource })
      ).trim();
    await initRepository(workdir);
    await fetchBase(localSource, workdir, sha);
  } catch (e) {
    throw new UserError(`could not fetch commit ${baseCommit} into ${workdir}: ${cleanGitError(e)}`, 'git');
  }
}

/**
 * createWorkTree from the source a person gave: finding the base commit there (and making the
 * mirror of a URL) and `git init` of the work tree do not depend on each other, so they run side
 * by side, one git process less on a checkout's critical path. Returns what ensureLocalCommit
 * found. When the commit is not there, its error is the one thrown (the caller removes `workdir`).
 */
export async function createWorkTreeFrom(
  source: RepoSource,
  workdir: string,
  baseCommit: string,
  log: (line: string) => void = () => {},
  /** Where the work tree will be once in place (`workdir` may be a temporary sibling), for the log. */
  shownDir = workdir,
): Promise<{ repo: string; commit: string; madeInCache?: string }> {
  const [local, init] = await Promise.allSettled([ensureLocalCommit(source, baseCommit, log), initRepository(workdir)]);
  if (local.status === 'rejected') throw local.reason;
  log(`copying the history of ${describeRepoSource(source)} up to ${baseCommit.slice(0, 12)} into ${shownDir}`);
  try {
    if (init.status === 'rejected') throw init.reason;
    return { ...local.value, ...(await fetchBase(local.value.repo, workdir, local.value.commit)) };
  } catch (e) {
    throw new UserError(`could not fetch commit ${baseCommit} into ${workdir}: ${cleanGitError(e)}`, 'git');
  }
}

function initRepository(workdir: string): Promise<string> {
  return runGit(['init', '--quiet', '--', workdir], { cwd: dirname(workdir) });
}

/**
 * Gives the new repository at `workdir` the commit `sha` of `localSource` and its history as
 * BASE_REF: the objects reachable from `sha` and nothing else. They come from the base store of
 * (`localSource`, `sha`) in the cache (baseStore.ts), made on the first work tree of that base and
 * borrowed by every later one, so only the first pays for packing the history. Should the store
 * be unusable (a cache that cannot be written, a store removed meanwhile), the objects are copied
 * straight from the source instead: packed by it and indexed by the work tree's repository, which
 * is what a fetch of `sha` does without the fetch's shell, upload-pack, ref negotiation and
 * connectivity walk. No FETCH_HEAD is written, so nothing names the source.
 */
async function fetchBase(localSource: string, workdir: string, sha: string): Promise<{ madeInCache?: string }> {
  const borrowed = await borrowBase(localSource, workdir, sha);
  if (!borrowed)
    await runGitPipe(
      { args: ['pack-objects', '--revs', '--stdout', '--quiet'], cwd: localSource, input: `${sha}\n` },
      { args: ['index-pack', '--stdin'], cwd: workdir },
    );
  if (!writeFirstRef(join(workdir, '.git'), BASE_REF, sha))
    await runGit(['update-ref', BASE_REF, sha], { cwd: workdir });
  return { madeInCache: borrowed ? borrowed.made : undefined };
}

/**
 * The base store's pack in place in `workdir`'s repository, and what was made in the cache for it
 * (nothing when the store was there); null (nothing left in `workdir`) when that failed.
 */
async function borrowBase(localSource: string, workdir: string, sha: string): Promise<{ made?: string } | null> {
  try {
    const { store, made } = await ensureBaseStore(cacheRoot(), localSource, sha);
    borrowBaseStore(store, join(workdir, '.git'));
    return { made };
  } catch {
    rmSync(join(workdir, '.git', 'objects', 'pack'), { recursive: true, force: true });
    mkdirSync(join(workdir, '.git', 'objects', 'pack'), { recursive: true });
    return null;
  }
}

/**
 * The first ref of a repository `git init` has just made, written as git's files backend writes
 * a loose ref (a lock file, renamed into place): one git process less on every checkout. False
 * (git is asked) when the layout is not that plain one: refs in a reftable, no such directory.
 * Nothing else can be using a repository this new, so there is no other writer to lock out.
 */
function writeFirstRef(gitDir: string, ref: string, sha: string): boolean {
  if (
    !/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(sha) ||
    !existsSync(join(gitDir, 'refs')) ||
    existsSync(join(gitDir, 'reftable'))
  )
    return false;
  const file = join(gitDir, ref);
  let locked = false;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const fd = openSync(`${file}.lock`, 'wx');
    locked = true;
    try {
      writeSync(fd, `${sha}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(`${file}.lock`, file);
    return true;
  } catch {
    if (locked) rmSync(`${file}.lock`, { force: true });
    return false;
  }
}

/** The one ref a fresh work tree has: its base commit (kept, so git never collects its history). */
export const BASE_REF = 'refs/chainlens/base';
