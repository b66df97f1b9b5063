// Where the container of one graded step runs: on the engine itself (`local`, a container), or
// as a Swarm job service placed on any node of the swarm (`swarm`, docs/scaling.md). Everything
// else about an evaluation (the bundle, the log, the grading) is the same for both, so the choice
// is made in one place, evaluateState, from ContainerRunOptions.engine.
import type Docker from 'dockerode';
import type { EvalBundle } from '../../core/evaluation/script';
import type { RepoInImage } from './repoPathCache';
import type { ContainerRun } from './stepRun';
import { assertSwarmManager } from './swarm/mode';

export const EVALUATION_ENGINES = ['local', 'swarm'] as const;
export type EvaluationEngine = (typeof EVALUATION_ENGINES)[number];

export interface StepExecutor {
  /** How the log's first line names where the step ran. */
  readonly where: string;
  /** The image the step runs in, and where it holds the repository (null: it is copied in). */
  place(): Promise<{ image: string; located: RepoInImage | null }>;
  /** Runs the bundle in `image` to the end (or the deadline, or cancellation); the log goes to the sink. */
  run(bundle: EvalBundle, image: string, copyIn: boolean): Promise<ContainerRun>;
}

/**
 * Throws a clear error when the engine cannot run steps the way `engine` asks (swarm: it must be
 * an active swarm manager). Called once before a batch starts, so a wrong engine fails it at once.
 */
export async function assertEngineReady(engine: EvaluationEngine, docker: Docker): Promise<void> {
  if (engine === 'swarm') await assertSwarmManager(docker);
}
