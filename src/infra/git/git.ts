import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { UserError } from '../../core/util/errors';
import type { PatchStats } from '../../protocol/run';
import { GitCommandError, runGit } from './exec';
import { batchRunDirsAmong, pathspecsWithout } from './ownOutputs';
import { headFromFiles, workTreeAtTop } from './repoFiles';

const SHA = /^[0-9a-f]{40}$/;
/** Refs ChainLens writes; validated so a run id can never smuggle options or paths into git. */
const REF = /^refs\/chainlens\/[A-Za-z0-9._/-]+$/;

/** Identity used only when the user has none configured (CI, fresh containers). */
const FALLBACK_IDENTITY = ['-c', 'user.name=ChainLens', '-c', 'user.email=chainlens@localhost'];

/**
 * Checkouts write files with one worker per core. git only splits the work when at least
 * checkout.thresholdForParallelism (100) files change, so a step's small switch is unaffected;
 * a first checkout of a large repository (4,000 files) spends most of its time writing files.
 */
const PARALLEL_CHECKOUT = ['-c', 'checkout.workers=0'];

export function assertRef(ref: string): string {
  if (!REF.test(ref) || ref.includes('..') || ref.endsWith('/') || ref.endsWith('.lock'))
    throw new Error(`invalid ChainLens ref '${ref}'`);
  return ref;
}

export function assertSha(sha: string): string {
  if (!SHA.test(sha)) throw new Error(`invalid commit id '${sha}'`);
  return sha;
}

/** What git says when the work tree's index file (`.git/index`) is damaged: truncated, overwritten, garbled. */
const DAMAGED_INDEX =
  /index file (smaller than expected|corrupt|open failed)|bad (index file )?signature|bad index (file sha1 signature|version)|unknown index entry format/i;

/**
 * A damaged index is the repository's trouble, not a ChainLens bug: said naming the file, with
 * the repair that keeps every file of the work tree as it is (`git reset` rebuilds the index from
 * HEAD). Nothing was done by the command that met it.
 */
function damagedIndex(e: unknown, dir: string): UserError | null {
  if (!(e instanceof GitCommandError) || !DAMAGED_INDEX.test(e.stderr)) return null;
  const said = e.stderr.trim().split('\n')[0];
  return new UserError(
    `the git index of ${dir} (.git/index) is damaged (${said}); nothing was done. Your files are untouched: rebuild the index with \`rm .git/index && git reset\` in ${dir}, then run the command again`,
    'git',
  );
}

/** The git operations ChainLens needs on one work tree, with validated arguments. */
export class Git {
  private identity: string[] | undefined;
  private gitDirCache: string | undefined;
  /** Revisions already resolved to commits: a commit id names the same commit for good, so asking git again is repeated work. */
  private readonly commits = new Map<string, string>();

  /** `known`: facts the caller already has (its git directory), so no git process is spent asking. */
  constructor(
    readonly dir: string,
    known: { gitDir?: string } = {},
  ) {
    this.gitDirCache = known.gitDir;
  }

  /** Records that `rev` resolves to the commit `sha` here (the caller just fetched it). */
  rememberCommit(rev: string, sha: string): void {
    this.commits.set(rev, assertSha(sha));
  }

  raw(args: string[], env?: Record<string, string>, input?: string): Promise<string> {
    return runGit(args, { cwd: this.dir, env, input }).catch((e: unknown) => {
      throw damagedIndex(e, this.dir) ?? e;
    });
  }

  /**
   * HEAD read from .git's own files where they say it plainly (repoFiles.ts), without a git
   * process: a replayed step asks for HEAD after each commit and before each switch.
   */
  private headFromFiles(): { commit: string; branch: string | null } | null {
    const at = workTreeAtTop(this.dir);
    return at && headFromFiles(at.gitDir);
  }

  /** git's user.name for this repository ('' when unset): who a label or a commit is by. */
  async userName(): Promise<string> {
    return (await this.raw(['config', 'user.name']).catch(() => '')).trim();
  }

  async gitDir(): Promise<string> {
    this.gitDirCache ??= (await this.raw(['rev-parse', '--absolute-git-dir'])).trim();
    return this.gitDirCache;
  }

  /** The full commit id of `rev`, or null when it does not name a commit here. */
  async resolveCommit(rev: string): Promise<string | null> {
    if (rev.startsWith('-')) throw new Error(`invalid revision '${rev}'`);
    const known = this.commits.get(rev);
    if (known) return known;
    try {
      const sha = (await this.raw(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim() || null;
      // Only commit ids are remembered: a ref or HEAD may move.
      if (sha && SHA.test(rev)) this.commits.set(rev, sha);
      return sha;
    } catch {
      return null;
    }
  }

  async head(): Promise<string> {
    return this.headFromFiles()?.commit ?? (await this.raw(['rev-parse', 'HEAD'])).trim();
  }

  async headAndBranch(): Promise<{ commit: string; branch: string | null } | null> {
    const plain = this.headFromFiles();
    if (plain) return plain;
    try {
      const [commit, name] = (await this.raw(['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD'])).split('\n');
      return { commit, branch: name.startsWith('refs/heads/') ? name : null };
    } catch {
      return null;
    }
  }

  /** Uncommitted changes, untracked files included (what a switch must never lose). */
  async isDirty(): Promise<boolean> {
    // --no-optional-locks: status would otherwise refresh the index under index.lock, and a
    // `chainlens status` beside a running submit would make that submit's commit fail.
    return (await this.raw(['--no-optional-locks', 'status', '--porcelain', '--untracked-files=all'])).trim() !== '';
  }

  private async commitIdentity(): Promise<string[]> {
    if (this.identity) return this.identity;
    let hasName = false;
    try {
      hasName = (await this.raw(['config', 'user.email'])).trim() !== '';
    } catch {
      hasName = false;
    }
    this.identity = hasName ? [] : FALLBACK_IDENTITY;
    return this.identity;
  }

  /**
   * `git add -A`, except ChainLens's own output folders a user put in the work tree (ownOutputs.ts):
   * they are never graded or committed as part of a step.
   */
  private async addAll(env?: Record<string, string>): Promise<void> {
    const untracked = (await this.raw(['ls-files', '-z', '--others', '--exclude-standard'], env))
      .split('\0')
      .filter(Boolean);
    await this.raw(['add', '-A', ...pathspecsWithout(batchRunDirsAmong(this.dir, untracked))], env);
  }

  /** Commits everything in the work tree (untracked files too); returns the new HEAD. */
  async commitAll(message: string): Promise<string> {
    try {
      // Whether an identity is configured is asked while the files are added (one wait, not two).
      const [identity] = await Promise.all([this.commitIdentity(), this.addAll()]);
      await this.raw([...identity, 'commit', '--quiet', '--allow-empty', '--no-verify', '-m', message]);
    } catch (e) {
      if (e instanceof UserError) throw e;
      // A damaged object store, a full disk: the repository's trouble, not ours.
      throw new UserError(
        `cannot commit the work in ${this.dir}: ${(e as Error).message.split('\n')[0]}; nothing was submitted and the work is still in the work tree`,
        'git',
      );
    }
    return this.head();
  }

  /**
   * Commits the index as it is (what applyStaged staged), not the work tree; returns the new HEAD.
   * One git process where commitAll takes two: the patch's files are already staged.
   */
  async commitStaged(message: string): Promise<string> {
    const identity = await this.commitIdentity();
    await this.raw([...identity, 'commit', '--quiet', '--allow-empty', '--no-verify', '-m', message]);
    return this.head();
  }

  /** Saves uncommitted work (untracked too) as a stash entry; returns its description. */
  async stash(message: string): Promise<string> {
    await this.raw([...(await this.commitIdentity()), 'stash', 'push', '--include-untracked', '--message', message]);
    const sha = (await this.raw(['rev-parse', 'stash@{0}'])).trim();
    return `stash@{0} (${sha.slice(0, 10)}, "${message}"; restore with: git stash apply ${sha.slice(0, 10)})`;
  }

  /** Stash entries, newest first: `stash@{n}`, the stash commit and its message. */
  async listStashes(): Promise<{ ref: string; sha: string; message: string }[]> {
    const out = await this.raw(['--no-optional-locks', 'stash', 'list', '--format=%gd%x00%H%x00%gs']);
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [ref, sha, subject] = line.split('\0');
        // git stores "On <branch>: <message>" for `stash push --message`.
        return { ref, sha, message: subject.replace(/^On [^:]*: /, '') };
      });
  }

  async updateRef(ref: string, sha: string): Promise<void> {
    await this.raw(['update-ref', assertRef(ref), assertSha(sha)]);
  }

  /** Sets several refs in one git process and one transaction: all of them move, or none. */
  async updateRefs(updates: readonly { ref: string; sha: string }[]): Promise<void> {
    if (updates.length === 0) return;
    if (updates.length === 1) return this.updateRef(updates[0].ref, updates[0].sha);
    const input = updates.map((u) => `update ${assertRef(u.ref)} ${assertSha(u.sha)}\n`).join('');
    await this.raw(['update-ref', '--stdin'], undefined, input);
  }

  async readRef(ref: string): Promise<string | null> {
    return this.resolveCommit(assertRef(ref));
  }

  /** Moves the run's branch to `sha` and checks it out (the work tree must be clean). */
  async switchBranch(branch: string, sha: string): Promise<void> {
    if (!/^chainlens\/[a-z0-9-]+$/.test(branch)) throw new Error(`invalid branch '${branch}'`);
    await this.raw([...PARALLEL_CHECKOUT, 'checkout', '--quiet', '-B', branch, assertSha(sha)]);
  }

  /** Like switchBranch, but discards the work tree and index: only for recovering ChainLens's own interrupted writes. */
  async forceSwitchBranch(branch: string, sha: string): Promise<void> {
    if (!/^chainlens\/[a-z0-9-]+$/.test(branch)) throw new Error(`invalid branch '${branch}'`);
    await this.raw([...PARALLEL_CHECKOUT, 'checkout', '--quiet', '--force', '-B', branch, assertSha(sha)]);
  }

  /**
   * Deletes those of `paths` (repository-relative, already checked safe) that exist in the work
   * tree but are not tracked: what a killed `git apply` created before its commit.
   */
  async removeUntracked(paths: readonly string[]): Promise<string[]> {
    if (paths.length === 0) return [];
    const tracked = new Set(
      (await this.raw(['ls-files', '-z', '--', ...paths.map((p) => `:(literal)${p}`)])).split('\0').filter(Boolean),
    );
    const removed: string[] = [];
    for (const p of paths) {
      const abs = join(this.dir, p);
      if (tracked.has(p) || !existsSync(abs)) continue;
      rmSync(abs, { force: true });
      removed.push(p);
    }
    return removed;
  }

  /** Removes .git/index.lock left by a git process that was killed (callers know no git runs here). */
  async removeStaleIndexLock(): Promise<boolean> {
    const lock = join(await this.gitDir(), 'index.lock');
    if (!existsSync(lock)) return false;
    rmSync(lock, { force: true });
    return true;
  }

  async tryApply(patch: string): Promise<string | null> {
    // One process, no `apply --check` first: git apply checks every hunk before it writes a file
    // and writes nothing when one does not apply (git-apply(1), --reject).
    try {
      await this.raw(['apply', '--whitespace=nowarn', '-'], undefined, withFinalNewline(patch));
      return null;
    } catch (e) {
      // A failure while writing (a full disk, a file it may not write) can leave part of the
      // patch in the tree: that is no "does not apply", and the caller's journal recovers it.
      if (await this.isDirty()) throw e;
      return cleanGitError(e);
    }
  }

  /**
   * tryApply to the work tree and the index at once, in one git process that also counts what the
   * patch changes (`git apply --index --numstat --apply`, git-apply(1)): the step's patch stats
   * without a `git diff --numstat`, and its commit without a `git add -A`. All or nothing, as
   * tryApply: `{ conflict }` with the tree and index as they were when it does not apply.
   */
  async applyStaged(patch: string): Promise<{ conflict: string } | { stats: PatchStats }> {
    let out: string;
    try {
      out = await this.raw(
        ['apply', '--index', '--whitespace=nowarn', '--numstat', '--apply', '-'],
        undefined,
        withFinalNewline(patch),
      );
    } catch (e) {
      if (await this.isDirty()) throw e;
      return { conflict: cleanGitError(e) };
    }
    return { stats: numstatTotals(out) };
  }

  /**
   * Commits `layers` one on top of the other starting at `base`, in one temporary index (read
   * once, however many layers) without touching the work tree: how Oracle states are made
   * cheaply. Throws UserError naming the patch that does not apply.
   */
  async commitLayersOnto(
    base: string,
    layers: { message: string; patches: { label: string; text: string }[] }[],
  ): Promise<string[]> {
    if (layers.length === 0) return [];
    const gitDir = await this.gitDir();
    const scratch = mkdtempSync(join(tmpdir(), 'chainlens-index-'));
    const env = { GIT_INDEX_FILE: join(scratch, 'index') };
    // A layer's commit needs only its tree and its parent, not the index: it is written while
    // the next layer's patches are applied, one git process less to wait for per layer.
    const commits: Promise<string>[] = [];
    try {
      await this.raw(['read-tree', assertSha(base)], env);
      let parent = Promise.resolve(base);
      for (const layer of layers) {
        await this.applyToIndex(layer.patches, env);
        const tree = (await this.raw(['write-tree'], env)).trim();
        // Oracle states are ChainLens's synthetic gold commits, not the person's: its own identity.
        const commit = async (p: string) =>
          (
            await this.raw([...FALLBACK_IDENTITY, 'commit-tree', tree, '-p', p, '-m', layer.message], {
              GIT_DIR: gitDir,
            })
          ).trim();
        parent = parent.then(commit);
        // Handled now, so a commit that fails while the next layer is applied is not an unhandled
        // rejection; Promise.all below still reports it.
        parent.catch(() => {});
        commits.push(parent);
      }
      return await Promise.all(commits);
    } catch (e) {
      // No git process of this call outlives it, whichever failed.
      await Promise.allSettled(commits);
      throw e;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /**
   * Applies `patches` in order to the index named by `env`. One `git apply` for all of them when
   * they apply together (the usual case: a test_patch and a gold patch touching different files);
   * git refuses a combined input whose patches touch one file twice, and as `git apply` changes
   * nothing when it fails, they are then applied one by one, which also names the one that fails.
   */
  private async applyToIndex(patches: readonly { label: string; text: string }[], env: Record<string, string>) {
    const texts = patches.filter((p) => p.text.trim() !== '');
    if (texts.length > 1) {
      const combined = texts.map((p) => withFinalNewline(p.text)).join('');
      const ok = await this.raw(['apply', '--cached', '--whitespace=nowarn', '-'], env, combined).then(
        () => true,
        () => false,
      );
      if (ok) return;
    }
    for (const patch of texts) {
      try {
        await this.raw(['apply', '--cached', '--whitespace=nowarn', '-'], env, withFinalNewline(patch.text));
      } catch (e) {
        throw new UserError(`${patch.label} does not apply: ${cleanGitError(e)}`, 'git');
      }
    }
  }

  /**
   * `git diff --binary base` of the work tree as it is now, untracked files included (what "Run
   * tests" evaluates before a submit), built in a temporary index so the person's index is untouched.
   */
  async diffWorkTree(base: string): Promise<string> {
    const scratch = mkdtempSync(join(tmpdir(), 'chainlens-index-'));
    const env = { GIT_INDEX_FILE: join(scratch, 'index') };
    try {
      await this.raw(['read-tree', 'HEAD'], env);
      await this.addAll(env);
      return await this.raw(['diff', '--cached', '--binary', '--no-color', '--no-ext-diff', assertSha(base)], env);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  async diffStats(from: string, to: string): Promise<PatchStats> {
    return numstatTotals(await this.raw(['diff', '--numstat', assertSha(from), assertSha(to)]));
  }

  /** `git diff --binary from to`: a step's patch, or a state's cumulative diff from base. */
  async diff(from: string, to: string): Promise<string> {
    return this.raw(['diff', '--binary', '--no-color', '--no-ext-diff', assertSha(from), assertSha(to)]);
  }
}

/** Files, insertions and deletions of `--numstat` output (a binary file counts as a file, no lines). */
function numstatTotals(out: string): PatchStats {
  let files = 0;
  let insertions = 0;
  let deletions = 0;
  for (const line of out.split('\n')) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(line);
    if (!m) continue;
    files++;
    insertions += m[1] === '-' ? 0 : Number(m[1]);
    deletions += m[2] === '-' ? 0 : Number(m[2]);
  }
  return { files, insertions, deletions };
}

function withFinalNewline(patch: string): string {
  return patch.endsWith('\n') ? patch : patch + '\n';
}

/** git's stderr without simple-git's wrapping, temp file names, or blank lines. */
export function cleanGitError(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('; ');
}
