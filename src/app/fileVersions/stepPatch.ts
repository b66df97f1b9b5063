// A step's patch as a person compares it with gold: the chain's gold patch, or the step's own
// (start..end once submitted; start..work tree while it is the current step).
import type { FileVersion } from './fileVersion';
import { stepOf } from './fileVersion';
import type { ChainRunSnapshot } from '../run/snapshot';

export async function stepPatchText(
  run: ChainRunSnapshot,
  order: number,
  side: 'gold' | 'yours',
): Promise<FileVersion> {
  const index = run.state.steps.findIndex((s) => s.order === order);
  if (index < 0) return { missing: `The chain has no step ${order}.` };
  if (side === 'gold') return { text: run.chain.steps[index].goldPatch };
  const { step } = stepOf(run, order);
  const git = run.workspace.git;
  if (!step.start) return { missing: `Step ${step.order} has not started yet.` };
  if (step.end) {
    const text = await git.diff(step.start, step.end);
    return text ? { text } : { missing: `Step ${step.order} changed nothing.` };
  }
  const text = await git.diffWorkTree(step.start);
  return text ? { text } : { missing: `No changes yet: edit the work tree to solve step ${step.order}.` };
}
