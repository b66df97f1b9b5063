import type { Git } from '../git/git';

/**
 * Commits a repository holds beyond `base`, on refs that are not ChainLens's own (branches,
 * tags, remotes of a clone the person made): history a solver working there could read, the
 * chain's future fixes included. null when there are none.
 */
export async function laterHistory(git: Git, base: string): Promise<{ commits: number; refs: string[] } | null> {
  const refs = (await git.raw(['for-each-ref', '--format=%(refname) %(objecttype) %(*objecttype) %(symref)']))
    .split('\n')
    .map((line) => line.split(' '))
    // Commits, and tags of commits (a tag of a tree or blob has no history), not symbolic refs
    // (origin/HEAD repeats origin/main); refs/stash is the person's own work (ChainLens stashes
    // it there before switching runs).
    .filter(([, type, peeled, symref]) => (type === 'commit' || peeled === 'commit') && !symref)
    .map(([ref]) => ref)
    .filter((r) => !r.startsWith('refs/chainlens/') && !r.startsWith('refs/heads/chainlens/') && r !== 'refs/stash');
  if (refs.length === 0) return null;
  // Only refs whose history reaches past base count; a branch sitting at base (or behind it) shows nothing new.
  const out = await git.raw(['rev-list', '--count', ...refs, '--not', base]);
  const commits = Number(out.trim());
  if (!commits) return null;
  const ahead: string[] = [];
  for (const ref of refs) {
    if (Number((await git.raw(['rev-list', '--count', ref, '--not', base])).trim()) > 0)
      ahead.push(ref.replace(/^refs\/(heads|tags|remotes)\//, ''));
    if (ahead.length > 3) break;
  }
  return { commits, refs: ahead };
}
