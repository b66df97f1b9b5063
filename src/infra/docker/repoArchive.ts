import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { UserError } from '../../core/util/errors';
import { runGit, spawnGit } from '../git/exec';

export interface RepoArchive {
  /** A tar stream of the commit's files, each under `prefix`. */
  readonly stream: Readable;
  /** Settles when git has finished; rejects if git failed (the stream is then truncated). */
  readonly done: Promise<void>;
  /** Stops git if the archive is no longer wanted (harmless once it finished). */
  abort(): void;
}

async function git(cwd: string, args: string[]): Promise<string> {
  return (await runGit(args, { cwd })).trim();
}

/**
 * Streams `git archive <commit>` of a host repository without the repository's export
 * attributes: `export-ignore` would silently leave files (often whole test folders) out of the
 * copy, and `export-subst` would rewrite contents. A throw-away bare repository borrows the
 * objects (alternates) and overrides both attributes in its info/attributes, which outranks
 * .gitattributes, so the user's repository is never touched.
 */
export async function openRepoArchive(localRepo: string, commit: string, prefix: string): Promise<RepoArchive> {
  let objects: string;
  try {
    objects = resolve(localRepo, await git(localRepo, ['rev-parse', '--git-path', 'objects']));
    await git(localRepo, ['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    throw new UserError(`${localRepo} is not a git repository holding commit ${commit}; fetch it there first.`, 'git');
  }
  const scratch = mkdtempSync(join(tmpdir(), 'chainlens-archive-'));
  const cleanup = () => rmSync(scratch, { recursive: true, force: true });
  try {
    await git(scratch, ['init', '--bare', '-q', '.']);
    writeFileSync(join(scratch, 'objects', 'info', 'alternates'), objects + '\n');
    mkdirSync(join(scratch, 'info'), { recursive: true });
    writeFileSync(join(scratch, 'info', 'attributes'), '* -export-ignore -export-subst\n');
  } catch (e) {
    cleanup();
    throw e;
  }
  const child = spawnGit(['--git-dir', scratch, 'archive', '--format=tar', `--prefix=${prefix}`, commit]);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<void>((resolveDone, reject) => {
    child.on('error', (e) => reject(e));
    child.on('close', (code) =>
      code === 0 ? resolveDone() : reject(new UserError(`git archive of ${commit} failed: ${stderr.trim()}`, 'git')),
    );
  }).finally(cleanup);
  // Piped at once: Node resumes (and so discards) a child's unread stdout when the child exits,
  // and a small archive is fully written before the container is ready to read it.
  const stream = child.stdout.pipe(new PassThrough({ highWaterMark: 1 << 20 }));
  done.catch(() => undefined);
  return {
    stream,
    done,
    abort: () => {
      if (child.exitCode === null) child.kill();
      stream.destroy();
    },
  };
}
