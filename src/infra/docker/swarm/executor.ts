// The Swarm step executor (executor.ts): the repository must be in the image, because a task gets
// its files only from the image and its configs; a chain image without it is replaced by one built
// from it (repoImage.ts). On more than one node that image must be in a registry every node pulls
// from (docs/scaling.md).
import type Docker from 'dockerode';
import type { StepExecutor } from '../executor';
import type { LogSink } from '../logSink';
import { locateRepoInImage } from '../repoPath';
import type { RunControl } from '../stepRun';
import { runJobService } from './jobService';
import { imageWithRepository, SWARM_REPO_PATH } from './repoImage';

/** What the Swarm executor takes of an evaluation's options (EvaluateStateOptions). */
export interface SwarmStepInput {
  readonly image: string;
  /** Path of the repository in the image; null = the image lacks it; undefined = detect. */
  readonly repoPathInImage?: string | null;
  readonly localRepo: string;
  readonly baseCommit: string;
  readonly runId: string;
  readonly memoryLimitBytes?: number;
  readonly network?: string;
}

export function swarmExecutor(
  docker: Docker,
  o: SwarmStepInput,
  imageId: string,
  sink: LogSink,
  control: RunControl,
): StepExecutor {
  return {
    where: ', as a Swarm job service',
    async place() {
      if (typeof o.repoPathInImage === 'string')
        return { image: o.image, located: { path: o.repoPathInImage, headIsBase: true } };
      if (o.repoPathInImage === undefined) {
        const found = await locateRepoInImage(o.image, o.baseCommit, docker, o.runId, imageId);
        if (found) return { image: o.image, located: found };
      }
      const image = await imageWithRepository(docker, o.image, imageId, o.localRepo, o.baseCommit);
      return { image, located: { path: SWARM_REPO_PATH, headIsBase: true } };
    },
    run: (bundle, image) =>
      runJobService(
        docker,
        { image, bundle, runId: o.runId, memoryLimitBytes: o.memoryLimitBytes, network: o.network },
        sink,
        control,
      ),
  };
}
