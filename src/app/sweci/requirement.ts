import { UserError } from '../../core/util/errors';
import { currentIteration, openTask } from './openTask';

/** The requirement document of the current iteration (the Architect writes it, the Programmer reads it). */
export async function writeRequirement(dir: string, text: string): Promise<{ iteration: number; path: string }> {
  if (!text.trim()) throw new UserError('the requirement is empty; nothing was written', 'usage');
  const { ws, record, store } = await openTask(dir);
  const iteration = currentIteration(record);
  if (iteration === null)
    throw new UserError('the SWE-CI loop has stopped; there is no iteration to write a requirement for', 'state');
  const path = await ws.store.hold('sweci requirement', async () =>
    store.writeRequirement(record.runId, iteration, text),
  );
  return { iteration, path };
}

export async function readRequirement(
  dir: string,
  iteration?: number,
): Promise<{ iteration: number; text: string | null; path: string }> {
  const { record, store } = await openTask(dir, undefined, false);
  const at = iteration ?? currentIteration(record) ?? record.iterations.length;
  if (at < 1 || at > record.task.limit)
    throw new UserError(`iteration ${at} is outside 1-${record.task.limit}`, 'usage');
  return {
    iteration: at,
    text: store.readRequirement(record.runId, at),
    path: store.requirementPath(record.runId, at),
  };
}
