// What `chainlens status` needs from git, read from the repository's own files when the answer is
// certain, so the commands a person runs often do not start a git process for it (a git process
// is several milliseconds of a start that should cost little more than Node's own; issue 20,
// docs/reference/cli.md "Start-up"). Every function answers only in the plain layout ChainLens's
// own checkouts have (a .git directory at the top of the work tree, files refs); anything else
// returns null and the caller asks git as before. Git's layout: gitrepository-layout(5).
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Environment that changes how git finds or configures a repository: git is asked then. */
const CONFIGURING_ENV = /^GIT_(CONFIG|COMMON_DIR$|CEILING)/;

/**
 * Config that moves the work tree away from the .git directory's parent, pulls in more config, or
 * turns on repository extensions (an unknown one makes git refuse the repository).
 */
const UNUSUAL_CONFIG =
  /^[ \t]*(worktree[ \t]*=|bare[ \t]*($|=(?![ \t]*false[ \t\r]*$))|\[[ \t]*(include|extensions))/im;

/** HEAD as git accepts it: a symbolic ref under refs/, or a commit id. */
const VALID_HEAD = /^(ref: refs\/\S+|[0-9a-f]{40})\n?$/;

const ownedByUs = (path: string): boolean => {
  const uid = process.getuid?.();
  return uid !== undefined && statSync(path).uid === uid;
};

/**
 * `git rev-parse --show-toplevel --absolute-git-dir` run in `dir`, when `dir` itself holds a
 * `.git` directory git would take as is: git then stops its search there, and prints both paths
 * with symlinks resolved. Null (ask git) for a `.git` file (a linked worktree or a submodule), a
 * directory that is not a repository git accepts (git would look further up), a repository owned
 * by another user (git's safe.directory check), and config that moves the work tree.
 */
export function workTreeAtTop(dir: string): { top: string; gitDir: string } | null {
  try {
    if (Object.keys(process.env).some((k) => CONFIGURING_ENV.test(k))) return null;
    const dotGit = join(dir, '.git');
    if (!lstatSync(dotGit, { throwIfNoEntry: false })?.isDirectory()) return null;
    if (!statSync(join(dotGit, 'objects')).isDirectory() || !statSync(join(dotGit, 'refs')).isDirectory()) return null;
    if (!VALID_HEAD.test(readFileSync(join(dotGit, 'HEAD'), 'utf8'))) return null;
    if (existsSync(join(dotGit, 'commondir')) || existsSync(join(dotGit, 'config.worktree'))) return null;
    if (UNUSUAL_CONFIG.test(readFileSync(join(dotGit, 'config'), 'utf8'))) return null;
    const top = realpathSync(dir);
    if (!ownedByUs(top) || !ownedByUs(dotGit)) return null;
    return { top, gitDir: join(top, '.git') };
  } catch {
    return null;
  }
}

/**
 * True when the repository at `gitDir` (a .git directory, as workTreeAtTop found) certainly has no
 * refs/stash, so `git stash list` would print nothing: no loose ref, no reflog, no packed ref, and
 * refs kept as files (not reftable). False means "ask git".
 */
export function certainlyNoStash(gitDir: string): boolean {
  try {
    if (existsSync(join(gitDir, 'reftable')) || existsSync(join(gitDir, 'commondir'))) return false;
    if (existsSync(join(gitDir, 'refs', 'stash')) || existsSync(join(gitDir, 'logs', 'refs', 'stash'))) return false;
    const packed = join(gitDir, 'packed-refs');
    return !existsSync(packed) || !readFileSync(packed, 'utf8').includes('refs/stash');
  } catch {
    return false;
  }
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * `git rev-parse HEAD --symbolic-full-name HEAD` in the repository at `gitDir` (a .git directory,
 * as workTreeAtTop found): HEAD's commit and its branch (null when detached), when HEAD is a
 * commit id or names a branch whose loose or packed ref is one. Null (ask git) for anything else:
 * an unborn branch, a ref pointing at another ref, refs kept in a reftable.
 */
export function headFromFiles(gitDir: string): { commit: string; branch: string | null } | null {
  try {
    if (existsSync(join(gitDir, 'reftable'))) return null;
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (SHA.test(head)) return { commit: head, branch: null };
    const branch = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
    if (!branch || branch.split('/').some((part) => part === '..' || part === '.' || part === '')) return null;
    const loose = join(gitDir, branch);
    const commit = existsSync(loose) ? readFileSync(loose, 'utf8').trim() : packedRef(gitDir, branch);
    return commit !== null && SHA.test(commit) ? { commit, branch } : null;
  } catch {
    return null;
  }
}

function packedRef(gitDir: string, name: string): string | null {
  const file = join(gitDir, 'packed-refs');
  if (!existsSync(file)) return null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const space = line.indexOf(' ');
    if (space === 40 && line.slice(41) === name && SHA.test(line.slice(0, 40))) return line.slice(0, 40);
  }
  return null;
}
