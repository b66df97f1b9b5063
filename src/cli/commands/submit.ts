import type { CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { UserError } from '../../core/util/errors';
import { faultPoint } from '../../infra/run/faults';
import { openWorkspace } from '../../infra/run/workspace';
import { printStatus } from './status';

const usage = `usage: chainlens submit [--dir <workdir>] [--step <n>] [--allow-empty]

Commits the current step's work (every change in the work tree, untracked files too), records the
step's patch as refs/chainlens/<run>/step-<k>/{start,end} and starts the next step: in Seq mode
where this one ended, in Oracle mode at base + the gold patches of the steps so far.
  --step <n>      the step you mean to submit; refused, nothing written, when the run is on
                  another one (default: the step current when the command started, so a submit
                  racing another one never submits the next step)
  --allow-empty   submit the step although the work tree has no change (an empty patch);
                  without it such a submit is refused`;

export const submitCommand: CliCommand = {
  name: 'submit',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(
      argv,
      { dir: { type: 'string' }, step: { type: 'string' }, 'allow-empty': { type: 'boolean' } },
      usage,
    );
    const wanted = values.step === undefined ? undefined : parseStep(values.step);
    const ws = await openWorkspace(values.dir ?? io.cwd, (l) => io.err(l));
    // The step this command saw, read before the lock: another submit finishing meanwhile moves
    // the run on, and this one is then refused instead of submitting the next step.
    const step = wanted ?? ws.engine.read().state.currentStep ?? undefined;
    faultPoint('submit:saw-step');
    const { state, notes, submitted } = await ws.engine.submit({
      step,
      allowEmpty: values['allow-empty'] === true,
      emptyHint: 'submit it empty on purpose with --allow-empty',
    });
    for (const n of notes) io.err(n);
    const chain = ws.store.loadChain(state.runId)!;
    io.err(
      `submitted step ${submitted}${state.currentStep === null ? '; the chain is complete' : `; now on step ${state.currentStep}`}`,
    );
    printStatus(io, state, chain, ws.dir, await ws.git.isDirty());
    return 0;
  },
};

function parseStep(value: string): number {
  if (!/^[1-9]\d*$/.test(value.trim())) throw new UserError(`--step takes a step number, not '${value}'`, 'usage');
  return Number(value.trim());
}
