// The repository copied into a container whose image lacks it (docs/reference/containers.md,
// "The repository copied in"): the base commit's files, and a git directory holding exactly that
// commit (shallow: its parents are not copied), so the container only unpacks it and refreshes
// its index. Nothing is hashed or committed inside the container.
import { createReadStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { COPY_IN_REPO_DIR } from '../../core/evaluation/script/bundle';
import { UserError } from '../../core/util/errors';
import { runGit, spawnGit } from '../git/exec';
import { tarArchive, tarEntriesOnly, tarHeader, tarPadding, type TarEntry } from './tar';

export interface RepoArchive {
  /**
   * Tar entries (no end-of-archive marker, so the evaluation's files can follow in the same
   * stream): the commit's files under `prefix`, then `prefix.git/`.
   */
  readonly stream: Readable;
  /** Settles when everything is in the stream; rejects if git failed (the stream is then cut short). */
  readonly done: Promise<void>;
  /** Stops git if the copy is no longer wanted (harmless once it finished). */
  abort(): void;
}

/**
 * The git directory of the copy: HEAD on `main` at the commit, the commit shallow (its history
 * stays on the host), the objects in one pack. The index is left to `git reset` in the container,
 * which reads the files it unpacked (an index written here would carry no valid file stats).
 */
function gitDirEntries(gitDir: string, commit: string, objectFormat: string): TarEntry[] {
  const sha256 = objectFormat === 'sha256';
  const config =
    `[core]\n\trepositoryformatversion = ${sha256 ? 1 : 0}\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n` +
    (sha256 ? '[extensions]\n\tobjectformat = sha256\n' : '');
  return [
    { path: `${gitDir}HEAD`, content: 'ref: refs/heads/main\n', mode: 0o644 },
    { path: `${gitDir}config`, content: config, mode: 0o644 },
    { path: `${gitDir}shallow`, content: `${commit}\n`, mode: 0o644 },
    { path: `${gitDir}refs/heads/main`, content: `${commit}\n`, mode: 0o644 },
    { path: `${gitDir}refs/tags`, mode: 0o755, directory: true },
    { path: `${gitDir}objects/info`, mode: 0o755, directory: true },
  ];
}

/**
 * A scratch bare repository that borrows the host repository's objects (alternates) and
 * overrides the export attributes in its info/attributes, which outranks .gitattributes:
 * `export-ignore` would silently leave files (often whole test folders) out of the copy, and
 * `export-subst` would rewrite contents. Written with fs (a `git init` is a process); the user's
 * repository is never touched.
 */
function scratchRepository(objects: string, objectFormat: string): string {
  const scratch = mkdtempSync(join(tmpdir(), 'chainlens-archive-'));
  for (const dir of ['refs/heads', 'refs/tags', 'objects/info', 'info', 'pack'])
    mkdirSync(join(scratch, dir), { recursive: true });
  const sha256 = objectFormat === 'sha256';
  writeFileSync(join(scratch, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(
    join(scratch, 'config'),
    `[core]\n\trepositoryformatversion = ${sha256 ? 1 : 0}\n\tbare = true\n` +
      (sha256 ? '[extensions]\n\tobjectformat = sha256\n' : ''),
  );
  writeFileSync(join(scratch, 'objects', 'info', 'alternates'), objects + '\n');
  writeFileSync(join(scratch, 'info', 'attributes'), '* -export-ignore -export-subst\n');
  return scratch;
}

/**
 * Streams the copy of `commit` from a host repository: `git archive` of its files (with the export
 * attributes off) while `git pack-objects` packs the commit and its tree alone, then the git
 * directory. Three git processes, two of them side by side.
 */
export async function openRepoArchive(localRepo: string, commit: string, prefix: string): Promise<RepoArchive> {
  let objects: string;
  let objectFormat: string;
  let commitId: string;
  try {
    // One process: the object format, where the objects are, and whether the commit is there.
    const out = await runGit(
      ['rev-parse', '--show-object-format', '--git-path', 'objects', '--verify', '-q', `${commit}^{commit}`],
      { cwd: localRepo },
    );
    const lines = out.trim().split('\n');
    if (lines.length !== 3) throw new Error('no commit');
    [objectFormat, objects, commitId] = [lines[0], resolve(localRepo, lines[1]), lines[2]];
  } catch {
    throw new UserError(`${localRepo} is not a git repository holding commit ${commit}; fetch it there first.`, 'git');
  }
  const scratch = scratchRepository(objects, objectFormat);
  const cleanup = () => rmSync(scratch, { recursive: true, force: true });

  const archive = spawnGit(['--git-dir', scratch, 'archive', '--format=tar', `--prefix=${prefix}`, commitId]);
  let archiveErr = '';
  archive.stderr.setEncoding('utf8').on('data', (d: string) => (archiveErr += d));
  const archived = new Promise<void>((resolveDone, reject) => {
    archive.on('error', (e) => reject(e));
    archive.on('close', (code) =>
      code === 0
        ? resolveDone()
        : reject(new UserError(`git archive of ${commit} failed: ${archiveErr.trim()}`, 'git')),
    );
  });
  // `--shallow <commit>` cuts the walk at the commit: the pack holds it, its trees and blobs.
  const packed = runGit(['--git-dir', scratch, 'pack-objects', '--revs', '-q', join(scratch, 'pack', 'pack')], {
    cwd: scratch,
    input: `--shallow ${commitId}\n${commitId}\n`,
  }).catch((e: unknown) => {
    throw new UserError(`git pack-objects of ${commit} failed: ${e instanceof Error ? e.message : String(e)}`, 'git');
  });
  packed.catch(() => undefined);

  const stream = new PassThrough({ highWaterMark: 1 << 20 });
  // A failure reaches the consumer through `done`; the stream only stops.
  stream.on('error', () => undefined);
  const put = async (chunk: Buffer): Promise<void> => {
    if (!stream.destroyed && !stream.write(chunk)) await drained(stream);
  };
  const done = (async () => {
    // Piped at once: Node resumes (and so discards) a child's unread stdout when the child exits.
    const entries = archive.stdout.pipe(tarEntriesOnly());
    for await (const chunk of entries) await put(chunk as Buffer);
    await archived;
    await packed;
    const gitDir = `${prefix}.git/`;
    await put(tarArchive(gitDirEntries(gitDir, commitId, objectFormat), { trailer: false }));
    for (const name of readdirSync(join(scratch, 'pack')).sort()) {
      const file = join(scratch, 'pack', name);
      const size = statSync(file).size;
      await put(tarHeader(`${gitDir}objects/pack/${name}`, size, 0o444));
      for await (const chunk of createReadStream(file)) await put(chunk as Buffer);
      await put(tarPadding(size));
    }
    stream.end();
  })().finally(cleanup);
  done.catch(() => stream.destroy());
  return {
    stream,
    done,
    abort: () => {
      if (archive.exitCode === null) archive.kill();
      stream.destroy();
    },
  };
}

/** Waits until `stream` takes more, or has closed (a destroyed stream never drains). */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolveDrain) => {
    const go = () => {
      stream.off('drain', go);
      stream.off('close', go);
      resolveDrain();
    };
    stream.on('drain', go);
    stream.on('close', go);
  });
}

/** The copy of `commit` for an evaluation container, where the bundle expects it (COPY_IN_REPO_DIR). */
export function openRepositoryCopy(localRepo: string, commit: string): Promise<RepoArchive> {
  return openRepoArchive(localRepo, commit, `${COPY_IN_REPO_DIR.slice(1)}/`);
}
