import type Docker from 'dockerode';
import { UserError } from '../../core/util/errors';
import { connectDocker } from './connect';
import { createManagedContainer, removeManagedContainer } from './managed';
import { cachedRepoInImage, rememberRepoInImage, type RepoInImage } from './repoPathCache';

export type { RepoInImage };

/** Where images usually keep the repository, tried first; then every top-level folder and a few homes. */
const CANDIDATES = '/testbed /repo /app /workspace /src /code /project /*/ /home/*/*/ /root/*/ /opt/*/ /usr/src/*/';

// POSIX sh: the image may have no bash. The base commit arrives in $BASE, never in the script text.
// A work tree whose HEAD is the base wins. Failing that, the first one whose history holds the
// base below HEAD and whose tracked files are unchanged (images built by older harness versions
// carry a commit on top of the base); the evaluation resets that one to the base
// (docs/reference/containers.md).
const SCRIPT = `g() { git -c safe.directory='*' -C "$d" "$@"; }
later=
for d in ${CANDIDATES}; do
  d=\${d%/}; [ -n "$d" ] && [ -e "$d/.git" ] || continue
  h=$(g rev-parse HEAD 2>/dev/null) || continue
  case "$h" in "$BASE"*) echo "CHAINLENS_REPO=$d"; exit 0;; esac
  [ -z "$later" ] || continue
  g merge-base --is-ancestor "$BASE" HEAD 2>/dev/null || continue
  [ -z "$(g status --porcelain --untracked-files=no 2>/dev/null)" ] && later=$d
done
[ -n "$later" ] && { echo "CHAINLENS_REPO_BELOW_HEAD=$later"; exit 0; }
exit 3`;

/** Answers of this process, also for probes still running (two evaluations of one image share one probe). */
const inProcess = new Map<string, Promise<RepoInImage | null>>();

/**
 * Where `image` holds the git work tree of `baseCommit`, or null when it does not (then the
 * repository has to be copied in). The answer is cached per image id and commit, in this process
 * and on disk (repoPathCache.ts); only an image never seen before costs a probe container.
 * `imageId`, when the caller has inspected the image already, saves asking the engine again.
 */
export async function locateRepoInImage(
  image: string,
  baseCommit: string,
  docker?: Docker,
  runId = 'detect',
  imageId?: string,
): Promise<RepoInImage | null> {
  if (!/^[0-9a-f]{7,40}$/i.test(baseCommit)) throw new UserError(`'${baseCommit}' is not a commit id`, 'input');
  const base = baseCommit.toLowerCase();
  const client = docker ?? (await connectDocker());
  const id = imageId ?? (await inspectId(client, image));
  const key = `${id}\0${base}`;
  let found = inProcess.get(key);
  if (!found) {
    const onDisk = cachedRepoInImage(id, base);
    found =
      onDisk !== undefined
        ? Promise.resolve(onDisk)
        : probe(client, image, base, runId).then((answer) => {
            rememberRepoInImage(id, base, answer);
            return answer;
          });
    inProcess.set(key, found);
    found.catch(() => inProcess.delete(key));
  }
  return found;
}

/** The path of the repository in `image` (see locateRepoInImage), or null. */
export async function detectRepoPath(
  image: string,
  baseCommit: string,
  docker?: Docker,
  runId = 'detect',
): Promise<string | null> {
  return (await locateRepoInImage(image, baseCommit, docker, runId))?.path ?? null;
}

async function inspectId(docker: Docker, image: string): Promise<string> {
  try {
    return (await docker.getImage(image).inspect()).Id;
  } catch {
    throw new UserError(
      `Image ${image} is not on this machine; it is needed to find the repository inside it.`,
      'environment',
    );
  }
}

async function probe(docker: Docker, image: string, baseCommit: string, runId: string): Promise<RepoInImage | null> {
  let container: Docker.Container | undefined;
  try {
    // Tracked like every ChainLens container: a SIGTERM while the probe runs removes it too.
    container = await createManagedContainer(docker, runId, {
      Image: image,
      Entrypoint: [''],
      Cmd: ['/bin/sh', '-c', SCRIPT],
      Env: [`BASE=${baseCommit}`],
      User: '0:0',
      Tty: true,
    });
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    const out = (await container.logs({ stdout: true, stderr: false })).toString('utf8');
    const m = /CHAINLENS_REPO(_BELOW_HEAD)?=(\/[^\r\n]*)/.exec(out);
    return StatusCode === 0 && m ? { path: m[2], headIsBase: m[1] === undefined } : null;
  } catch (e) {
    throw new UserError(
      `Could not look for the repository inside image ${image}: ${e instanceof Error ? e.message : String(e)}`,
      'environment',
    );
  } finally {
    if (container) await removeManagedContainer(container);
  }
}
