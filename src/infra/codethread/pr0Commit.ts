import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit } from '../git/exec';

/** Who PR0 commits are by: fixed, so the same instance and repository always give the same commit id. */
const IDENTITY = { name: 'ChainLens', email: 'chainlens@localhost' };

/** Reads files at one commit of a repository (work tree or bare). */
export class CommitFiles {
  constructor(
    private readonly repo: string,
    private readonly commit: string,
  ) {}

  /** The file's text, or undefined when the commit has no such file or it is not UTF-8 text. */
  async read(path: string): Promise<string | undefined> {
    try {
      const text = await runGit(['cat-file', 'blob', `${this.commit}:${path}`], { cwd: this.repo });
      // A file that is not UTF-8 would be written back changed: leave it alone.
      return text.includes('\uFFFD') ? undefined : text;
    } catch {
      return undefined;
    }
  }
}

/** The full id of a commit of `repo`, or null when it has none such. */
export async function resolveCommit(repo: string, commit: string): Promise<string | null> {
  try {
    return (
      await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${commit}^{commit}`], { cwd: repo })
    ).trim();
  } catch {
    return null;
  }
}

/**
 * Writes PR0 into `repo` and points `ref` at it: a root commit (no parent) whose tree is the base
 * commit's with `files` replaced by their skeletons. No parent, because any earlier commit holds
 * the removed bodies, the Implementation Task's answer (docs/reference/codethread.md). The
 * author, committer, date (the base commit's) and message are fixed, so building the same
 * instance again, here or on another machine, gives the same commit id. Uses a private index
 * file; the repository's own index and work tree are not touched.
 */
export async function writePr0Commit(
  repo: string,
  baseCommit: string,
  files: readonly { path: string; text: string }[],
  ref: string,
): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), 'chainlens-pr0-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    await runGit(['read-tree', baseCommit], { cwd: repo, env });
    for (const f of files) {
      const listed = (await runGit(['ls-tree', baseCommit, '--', f.path], { cwd: repo })).trim();
      const mode = /^(\d+) blob /.exec(listed)?.[1] ?? '100644';
      const blob = (
        await runGit(['hash-object', '-w', '--no-filters', '--stdin'], { cwd: repo, input: f.text })
      ).trim();
      await runGit(['update-index', '--cacheinfo', `${mode},${blob},${f.path}`], { cwd: repo, env });
    }
    const tree = (await runGit(['write-tree'], { cwd: repo, env })).trim();
    const date = (await runGit(['show', '-s', '--format=%cI', baseCommit], { cwd: repo })).trim();
    const commit = (
      await runGit(['-c', 'commit.gpgSign=false', 'commit-tree', tree, '-m', 'Skeleton for the Implementation Task'], {
        cwd: repo,
        env: {
          GIT_AUTHOR_NAME: IDENTITY.name,
          GIT_AUTHOR_EMAIL: IDENTITY.email,
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_NAME: IDENTITY.name,
          GIT_COMMITTER_EMAIL: IDENTITY.email,
          GIT_COMMITTER_DATE: date,
        },
      })
    ).trim();
    await runGit(['update-ref', ref, commit], { cwd: repo });
    return commit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `git diff` from one commit to another over some paths: PR0 -> base is the Implementation Task's gold patch. */
export async function diffCommits(repo: string, from: string, to: string, paths: readonly string[]): Promise<string> {
  return runGit(['diff', '--no-color', '--no-ext-diff', '--no-renames', from, to, '--', ...paths], { cwd: repo });
}
