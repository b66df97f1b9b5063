import { isPathSafe } from '../../core/patch/paths';
import { UserError } from '../../core/util/errors';
import { GitCommandError, runGitBytes } from './exec';

/**
 * File contents at a revision, read in one `git cat-file --batch` process (one `git show` per file
 * would start a process per file). Missing paths (and unsafe ones) come back undefined.
 */
export async function readBlobs(
  repo: string,
  rev: string,
  paths: readonly string[],
): Promise<Map<string, string | undefined>> {
  const wanted = [...new Set(paths)].filter((p) => isPathSafe(p));
  const result = new Map<string, string | undefined>();
  if (wanted.length === 0) return result;
  let out: Buffer;
  try {
    out = await runGitBytes(['cat-file', '--batch'], { cwd: repo, input: wanted.map((p) => `${rev}:${p}\n`).join('') });
  } catch (e) {
    if (e instanceof GitCommandError && e.exitCode !== null)
      throw new UserError(`git cat-file in ${repo} failed: ${e.stderr.trim()}`, 'git');
    throw e;
  }
  let at = 0;
  for (const path of wanted) {
    const nl = out.indexOf(0x0a, at);
    const header = out.subarray(at, nl).toString();
    at = nl + 1;
    const m = /^\S+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      result.set(path, undefined);
      continue;
    }
    const size = Number(m[2]);
    result.set(path, m[1] === 'blob' ? out.subarray(at, at + size).toString('utf8') : undefined);
    at += size + 1;
  }
  return result;
}
