import { assertEngineReady, connectDocker, EVALUATION_ENGINES, type EvaluationEngine } from '../../infra/docker';
import { OptionError } from '../../core/util/errors';

export { EVALUATION_ENGINES, type EvaluationEngine };

/** The `--engine` value, checked: `local` (default) or `swarm`. */
export function parseEngine(value: string | undefined): EvaluationEngine {
  if (value === undefined) return 'local';
  const engine = EVALUATION_ENGINES.find((e) => e === value.trim());
  if (!engine) throw new OptionError('engine', `must be ${EVALUATION_ENGINES.join(' or ')}, not '${value}'`);
  return engine;
}

/**
 * Fails at once, before anything is written, when the engine cannot run steps the way `engine`
 * asks (swarm: an active swarm manager). The local engine is checked by planning the batch.
 */
export async function checkBatchEngine(engine: EvaluationEngine): Promise<void> {
  if (engine !== 'local') await assertEngineReady(engine, await connectDocker());
}
