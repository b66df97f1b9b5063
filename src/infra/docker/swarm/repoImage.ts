// A Swarm task gets its files only from its image and its configs, and a config holds at most
// 500 KB: too small for a repository. So a chain whose image lacks the repository runs on an
// image built from it that holds the checkout at base_commit, as SWE-bench images do
// (docs/scaling.md, "Docker Swarm"). The tag is derived from what went in, so the image is
// built once per chain image and base commit and then found again by every later step and batch.
import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../../core/util/errors';
import { runGit } from '../../git/exec';
import { dockerMessage } from '../stepRun';

/** Where the built image holds the repository: where SWE-bench images hold theirs. */
export const SWARM_REPO_PATH = '/testbed';
/** Label on the images built here, so they can be listed (and pruned) with a filter. */
export const LABEL_REPO_IMAGE = 'chainlens.repo-image';

/**
 * The tag of `image` (id `imageId`) plus the repository at `baseCommit` in SWARM_REPO_PATH:
 * `chainlens-repo/<image name>:<base commit prefix>-<hash of image id, commit, path>`.
 */
export function repoImageTag(image: string, imageId: string, baseCommit: string): string {
  const name =
    image
      .replace(/[@:][^/]*$/, '')
      .split('/')
      .pop()!
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-')
      .replace(/^[._-]+/, '')
      .slice(0, 60) || 'image';
  const hash = createHash('sha256').update(`${imageId}\n${baseCommit}\n${SWARM_REPO_PATH}`).digest('hex').slice(0, 12);
  return `chainlens-repo/${name}:${baseCommit.slice(0, 12)}-${hash}`;
}

/** Builds of this process, also while running: the steps of one chain share one build. */
const building = new Map<string, Promise<string>>();

/**
 * An image holding the repository at `baseCommit` (a git work tree at SWARM_REPO_PATH whose HEAD
 * is that commit): built `FROM image` once, then reused. Returns its tag. The repository in it
 * is a depth-1 fetch of the base commit from `localRepo`: the base and nothing later.
 */
export function imageWithRepository(
  docker: Docker,
  image: string,
  imageId: string,
  localRepo: string,
  baseCommit: string,
): Promise<string> {
  const tag = repoImageTag(image, imageId, baseCommit);
  let done = building.get(tag);
  if (!done) {
    done = ensureBuilt(docker, image, localRepo, baseCommit, tag);
    building.set(tag, done);
    done.catch(() => building.delete(tag));
  }
  return done;
}

async function ensureBuilt(
  docker: Docker,
  image: string,
  localRepo: string,
  baseCommit: string,
  tag: string,
): Promise<string> {
  try {
    await docker.getImage(tag).inspect();
    return tag;
  } catch {
    // not built yet
  }
  const context = mkdtempSync(join(tmpdir(), 'chainlens-repo-image-'));
  try {
    const testbed = join(context, 'testbed');
    try {
      await runGit(['init', '-q', testbed], { cwd: context });
      await runGit(['fetch', '-q', '--depth', '1', localRepo, baseCommit], { cwd: testbed });
      await runGit(['-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', 'FETCH_HEAD'], { cwd: testbed });
    } catch (e) {
      throw new UserError(
        `could not check out base commit ${baseCommit} from ${localRepo} for the image with the repository: ${e instanceof Error ? e.message : String(e)}`,
        'git',
      );
    }
    writeFileSync(join(context, 'Dockerfile'), `FROM ${image}\nCOPY testbed ${SWARM_REPO_PATH}\n`);
    const stream = await docker.buildImage(
      { context, src: ['Dockerfile', 'testbed'] },
      { t: tag, labels: { [LABEL_REPO_IMAGE]: 'true', 'chainlens.base-commit': baseCommit } },
    );
    const events = await new Promise<{ error?: string }[]>((resolve, reject) =>
      docker.modem.followProgress(stream, (err: unknown, out: { error?: string }[]) =>
        err ? reject(err) : resolve(out),
      ),
    );
    const failed = events.find((e) => e.error);
    if (failed) throw new Error(failed.error);
    return tag;
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(
      `Docker could not build ${tag} (${image} with the repository at ${baseCommit}): ${dockerMessage(e)}`,
      'environment',
    );
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}
