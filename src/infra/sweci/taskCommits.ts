import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../core/util/errors';
import type { Git } from '../git/git';

/** Top-level folders SWE-CI removes from the current code before it copies the target's tests in. */
const CURRENT_DROPS = ['test', 'tests'];
/** Top-level folders SWE-CI removes from the target code (it keeps the target's `tests`). */
const TARGET_DROPS = ['test'];

export interface TaskCommits {
  /** The current code with the target's `tests/`: the run's base commit (its parent: current_sha). */
  base: string;
  /** The target code without `test/`: the oracle state (its parent: target_sha). Never enters a work tree. */
  oracle: string;
  currentSha: string;
  targetSha: string;
}

/**
 * Builds SWE-CI's two task states as commits in the unpacked repository, without touching its
 * work tree (a scratch index): the base = current_sha minus `test/` and `tests/`, plus target_sha's
 * `tests/`; the oracle = target_sha minus `test/`. docs/sweci.md says what differs from SWE-CI
 * (the repository's `.git*` files are kept: the work tree stays a git repository).
 */
export async function buildTaskCommits(
  git: Git,
  taskId: string,
  currentRev: string,
  targetRev: string,
): Promise<TaskCommits> {
  const currentSha = await git.resolveCommit(currentRev);
  const targetSha = await git.resolveCommit(targetRev);
  if (!currentSha)
    throw new UserError(`task '${taskId}': the repository archive has no commit ${currentRev} (current_sha)`, 'input');
  if (!targetSha)
    throw new UserError(`task '${taskId}': the repository archive has no commit ${targetRev} (target_sha)`, 'input');
  const index = join(await git.gitDir(), `chainlens-sweci-index-${process.pid}`);
  const env = { GIT_INDEX_FILE: index };
  const commitEnv = {
    ...env,
    GIT_AUTHOR_NAME: 'ChainLens',
    GIT_AUTHOR_EMAIL: 'chainlens@localhost',
    GIT_COMMITTER_NAME: 'ChainLens',
    GIT_COMMITTER_EMAIL: 'chainlens@localhost',
    // A fixed date: the same task gives the same base commit on every machine.
    GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
  };
  try {
    await git.raw(['read-tree', currentSha], env);
    await git.raw(['rm', '-r', '-q', '-f', '--cached', '--ignore-unmatch', '--', ...CURRENT_DROPS], env);
    const targetTests = (await git.raw(['ls-tree', '-d', '--name-only', targetSha, '--', 'tests'])).trim();
    if (!targetTests)
      throw new UserError(`task '${taskId}': the target commit ${targetSha} has no tests/ folder to run`, 'input');
    await git.raw(['read-tree', '--prefix=tests/', `${targetSha}:tests`], env);
    const baseTree = (await git.raw(['write-tree'], env)).trim();
    const base = (
      await git.raw(
        [
          'commit-tree',
          baseTree,
          '-p',
          currentSha,
          '-m',
          `SWE-CI task ${taskId}: current code with the target's tests`,
        ],
        commitEnv,
      )
    ).trim();
    await git.raw(['read-tree', targetSha], env);
    await git.raw(['rm', '-r', '-q', '-f', '--cached', '--ignore-unmatch', '--', ...TARGET_DROPS], env);
    const oracleTree = (await git.raw(['write-tree'], env)).trim();
    const oracle = (
      await git.raw(['commit-tree', oracleTree, '-p', targetSha, '-m', `SWE-CI task ${taskId}: oracle`], commitEnv)
    ).trim();
    return { base, oracle, currentSha, targetSha };
  } finally {
    rmSync(index, { force: true });
  }
}
