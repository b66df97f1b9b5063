// Where a batch's run directory may be: anywhere but inside the work tree of a ChainLens run.
// Its records, logs and every step's gold patch would otherwise sit in the tree being solved,
// show up as the solver's changes, be graded and be committed as the step's patch.
import { UserError } from '../../core/util/errors';
import { enclosingRunWorkTree } from '../../infra/run/enclosingRun';

/** Refuses a run directory inside a run's work tree, before anything is written (both front ends). */
export function refuseRunDirInWorkTree(runDir: string): void {
  const workTree = enclosingRunWorkTree(runDir);
  if (workTree === undefined) return;
  throw new UserError(
    `the batch run directory ${runDir} is inside ${workTree}, the work tree of a ChainLens run: its records, logs and gold patches would become part of the step being solved; choose a folder outside it`,
    'usage',
  );
}
