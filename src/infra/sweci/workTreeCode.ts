import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { testPathChanges } from '../../core/sweci/policies';
import type { Git } from '../git/git';

/**
 * The work tree's changes under the task's test paths against `base` (the task's tests), untracked
 * files included, bytecode caches left out. Reads only: the index is not touched.
 */
export async function changedTestPaths(git: Git, base: string, testPaths: readonly string[]): Promise<string[]> {
  const [tracked, untracked] = await Promise.all([
    git.raw(['diff', '--name-only', '--no-renames', base, '--', ...testPaths]),
    git.raw(['ls-files', '--others', '--exclude-standard', '--', ...testPaths]),
  ]);
  const lines = (s: string) => s.split('\n').filter(Boolean);
  return testPathChanges([...new Set([...lines(tracked), ...lines(untracked)])]);
}

/**
 * Puts the test paths back as they are at `base`, after saving what the Programmer changed there
 * as one binary diff in `diffPath` (outside the work tree), so nothing of theirs is lost.
 */
export async function resetTestPaths(
  git: Git,
  base: string,
  paths: readonly string[],
  diffPath: string,
): Promise<void> {
  // Intent-to-add makes new files part of the diff without staging their content.
  await git.raw(['add', '--intent-to-add', '--', ...paths]).catch(() => undefined);
  const diff = await git.raw(['diff', '--binary', '--no-renames', base, '--', ...paths]);
  mkdirSync(dirname(diffPath), { recursive: true });
  // Appended: a second reset in the same iteration (a failed submit, then another) keeps the first.
  appendFileSync(diffPath, diff);
  // restore removes what `base` does not have and rewrites the rest, index and files alike.
  await git.raw(['restore', `--source=${base}`, '--staged', '--worktree', '--', ...paths]);
}

/**
 * Makes the work tree hold `source`'s code again and commits that on the run's branch, with
 * `message`: how a discarded iteration's successor starts from the last kept code. Returns the
 * commit (HEAD itself when the tree already holds it, so a repeat after a crash changes nothing).
 */
export async function restoreCode(git: Git, source: string, message: string): Promise<string> {
  await git.raw(['restore', `--source=${source}`, '--staged', '--worktree', '--', ':/']);
  // Files `source` does not have and git does not track (none after a submit) stay as they are.
  if (!(await git.isDirty())) return git.head();
  return git.commitAll(message);
}
