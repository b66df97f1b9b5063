// The work tree of a ChainLens run that holds a path, if any: ChainLens never writes its own
// files into a run's work tree (docs/run-state.md), where git would see them as the solver's
// changes, Run Step Tests would grade them and Submit Step would commit them.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pointerDir } from './stateDir';

/** The git directory of a work tree at `dir`: `.git` itself, or where a linked worktree's `.git` file points. */
function gitDirOf(dir: string): string | undefined {
  const dotGit = join(dir, '.git');
  if (!existsSync(dotGit)) return undefined;
  if (statSync(dotGit).isDirectory()) return dotGit;
  const target = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
  if (!target) return undefined;
  return isAbsolute(target) ? target : resolve(dir, target);
}

/** Whether the work tree at `dir` has a ChainLens run (its pointer, or the older in-repository state). */
function holdsRun(dir: string): boolean {
  const gitDir = gitDirOf(dir);
  if (!gitDir) return false;
  const own = pointerDir(gitDir);
  return existsSync(join(own, 'state')) || existsSync(join(own, 'current'));
}

/** The run work tree `path` (existing or not) is inside of, itself included; undefined when none. */
export function enclosingRunWorkTree(path: string): string | undefined {
  let dir = resolve(path);
  for (;;) {
    if (holdsRun(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
