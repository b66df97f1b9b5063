import type Docker from 'dockerode';
import { UserError } from '../../core/util/errors';
import { connectDocker } from './connect';
import { createManagedContainer, removeManagedContainer } from './managed';

/** Where images usually keep the repository, tried first; then every top-level folder and a few homes. */
const CANDIDATES = '/testbed /repo /app /workspace /src /code /project /*/ /home/*/*/ /root/*/ /opt/*/ /usr/src/*/';

// POSIX sh: the image may have no bash. The base commit arrives in $BASE, never in the script text.
const SCRIPT = `for d in ${CANDIDATES}; do
  d=\${d%/}; [ -n "$d" ] && [ -e "$d/.git" ] || continue
  h=$(git -c safe.directory='*' -C "$d" rev-parse HEAD 2>/dev/null) || continue
  case "$h" in "$BASE"*) echo "CHAINLENS_REPO=$d"; exit 0;; esac
done
exit 3`;

const cache = new Map<string, Promise<string | null>>();

/**
 * The path of the git work tree in `image` whose HEAD is `baseCommit`, or null when the image
 * does not hold it (then the repository has to be copied in). Runs one short container; the
 * answer is cached per image id and commit.
 */
export async function detectRepoPath(
  image: string,
  baseCommit: string,
  docker?: Docker,
  runId = 'detect',
): Promise<string | null> {
  if (!/^[0-9a-f]{7,40}$/i.test(baseCommit)) throw new UserError(`'${baseCommit}' is not a commit id`, 'input');
  const client = docker ?? (await connectDocker());
  let imageId: string;
  try {
    imageId = (await client.getImage(image).inspect()).Id;
  } catch {
    throw new UserError(
      `Image ${image} is not on this machine; it is needed to find the repository inside it.`,
      'environment',
    );
  }
  const key = `${imageId}\0${baseCommit.toLowerCase()}`;
  let found = cache.get(key);
  if (!found) {
    found = probe(client, image, baseCommit.toLowerCase(), runId);
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

async function probe(docker: Docker, image: string, baseCommit: string, runId: string): Promise<string | null> {
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
    const m = /CHAINLENS_REPO=(\/[^\r\n]*)/.exec(out);
    return StatusCode === 0 && m ? m[1] : null;
  } catch (e) {
    throw new UserError(
      `Could not look for the repository inside image ${image}: ${e instanceof Error ? e.message : String(e)}`,
      'environment',
    );
  } finally {
    if (container) await removeManagedContainer(container);
  }
}
