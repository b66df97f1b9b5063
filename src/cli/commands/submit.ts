import type { CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { openWorkspace } from '../../infra/runs/workspace';
import { printStatus } from './status';

const usage = `usage: chainlens submit [--dir <workdir>]

Commits the current step's work (every change in the work tree, untracked files too), records the
step's patch as refs/chainlens/<run>/step-<k>/{start,end} and starts the next step: in Seq mode
where this one ended, in Oracle mode at base + the gold patches of the steps so far.`;

export const submitCommand: CliCommand = {
  name: 'submit',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, { dir: { type: 'string' } }, usage);
    const ws = await openWorkspace(values.dir ?? io.cwd, (l) => io.err(l));
    const { state, notes, submitted } = await ws.engine.submit();
    for (const n of notes) io.err(n);
    const chain = ws.store.loadChain(state.runId)!;
    io.err(
      `submitted step ${submitted}${state.currentStep === null ? '; the chain is complete' : `; now on step ${state.currentStep}`}`,
    );
    printStatus(io, state, chain, ws.dir, await ws.git.isDirty());
    return 0;
  },
};
