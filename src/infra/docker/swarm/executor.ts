// The Swarm step executor (executor.ts): the repository must be in the image, because a task gets
// its files only from the image and its configs; a chain image without it is replaced by one built
// from it (repoImage.ts). On more than one node that image must be in a registry every node pulls
// from (docs/scaling.md).
import type Docker from 'dockerode';
import type { ContainerSpec } from '../../../core/evaluation/stepSpec';
import type { StepExecutor } from '../executor';
import type { LogSink } from '../logSink';
import { locateRepoInImage } from '../repoPath';
import type { RunControl } from '../stepRun';
import { runJobService } from './jobService';
import { imageWithRepository, SWARM_REPO_PATH } from './repoImage';

/** What the Swarm executor takes of an evaluation (evaluateState.ts). */
export interface SwarmStepInput {
  readonly spec: Pick<ContainerSpec, 'image' | 'baseCommit' | 'repoPath'>;
  readonly localRepo: string;
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
      const { image: chainImage, baseCommit, repoPath } = o.spec;
      if (repoPath.kind === 'at') return { image: chainImage, located: { path: repoPath.path, headIsBase: true } };
      if (repoPath.kind === 'detect') {
        const found = await locateRepoInImage(chainImage, baseCommit, docker, o.runId, imageId);
        if (found) return { image: chainImage, located: found };
      }
      const image = await imageWithRepository(docker, chainImage, imageId, o.localRepo, baseCommit);
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
