import { runGit } from '../git/exec';

/**
 * Lines added plus lines deleted between two commits of the repository at `repo`, the test
 * folders left out (`tests/`, and `test/` which SWE-CI's oracle drops): the size SWE-CI's Fig. 9
 * compares. Binary files count no lines.
 */
export async function linesChanged(repo: string, from: string, to: string): Promise<number> {
  const out = await runGit(
    ['diff', '--numstat', '--no-renames', from, to, '--', '.', ':(exclude)tests', ':(exclude)test'],
    { cwd: repo },
  );
  let total = 0;
  for (const line of out.split('\n')) {
    const [added, deleted] = line.split('\t');
    if (/^\d+$/.test(added ?? '') && /^\d+$/.test(deleted ?? '')) total += Number(added) + Number(deleted);
  }
  return total;
}
