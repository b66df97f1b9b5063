// What an agent with a shell in its work tree can find: the commands a curious (or cheating)
// agent would run there, their output joined into one transcript to search for the answers.
// Covers every object of the repository, reachable or not (cat-file --batch-all-objects), and
// every file of the work tree and its .git in clear text (refs, logs, config, ChainLens files).
import { execFileSync, spawnSync } from 'node:child_process';

const PROBES = [
  "git log --all --format='%H %an <%ae> %s%n%b'",
  'git rev-list --all --objects',
  'git fsck --unreachable --no-reflogs --full',
  'git reflog --all',
  'git for-each-ref',
  'git tag -l',
  'git branch -a',
  'git remote -v',
  'git stash list',
  'git config --list --local',
  'git cat-file --batch-all-objects --batch',
  // Loose files in clear text (packs and loose objects are compressed: the line above reads those).
  "find . -type f ! -path './.git/objects/*' -print0 | xargs -0 cat",
];

export function exploreAsSolver(dir: string): string {
  return PROBES.map((cmd) => {
    const r = spawnSync('bash', ['-c', `${cmd} 2>&1`], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    return `$ ${cmd}\n${r.stdout}`;
  }).join('\n');
}

/** Of `shas`, those `git cat-file` can still read in `dir` (reachable or not). */
export function readableObjects(dir: string, shas: readonly string[]): string[] {
  return shas.filter((sha) => spawnSync('git', ['cat-file', '-e', sha], { cwd: dir }).status === 0);
}

/** Lines of `git fsck --unreachable --no-reflogs`: objects no ref reaches that git still has. */
export function unreachableObjects(dir: string): string[] {
  return execFileSync('git', ['fsck', '--unreachable', '--no-reflogs', '--full'], { cwd: dir, encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.startsWith('unreachable'));
}

/** Of `secrets`, those `text` contains. */
export function leaked(text: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) => text.includes(s));
}
