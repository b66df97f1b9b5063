import { policiesOf } from '../../core/sweci/policies';
import { REQUIREMENT_FIELDS, requirementShapeProblems } from '../../core/sweci/requirementShape';
import { UserError } from '../../core/util/errors';
import type { SweciRecord } from '../../protocol/sweci';
import { currentIteration, openTask } from './openTask';

/**
 * Refuses a requirement without Appendix C's shape (1 to 5 items, each with the four fields) when
 * the task asks for that shape; one detail line per problem. `free` tasks take any text.
 */
export function assertRequirementShape(record: SweciRecord, iteration: number, text: string, source: string): void {
  if (policiesOf(record.task).requirement === 'free') return;
  const problems = requirementShapeProblems(text);
  if (problems.length === 0) return;
  throw new UserError(
    `the requirement of iteration ${iteration} (${source}) does not have SWE-CI's shape (Appendix C: an XML document of 1 to 5 items, each with ${REQUIREMENT_FIELDS.map((f) => `<${f}>`).join(', ')}): ${problems.join('; ')}. Nothing was written; free text needs a task initialised to take free text (docs/sweci.md)`,
    'input',
  );
}

/** The requirement document of the current iteration (the Architect writes it, the Programmer reads it). */
export async function writeRequirement(
  dir: string,
  text: string,
  source = 'the requirement given',
): Promise<{ iteration: number; path: string }> {
  if (!text.trim()) throw new UserError('the requirement is empty; nothing was written', 'usage');
  const { ws, record, store } = await openTask(dir);
  const iteration = currentIteration(record);
  if (iteration === null)
    throw new UserError('the SWE-CI loop has stopped; there is no iteration to write a requirement for', 'state');
  assertRequirementShape(record, iteration, text, source);
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
