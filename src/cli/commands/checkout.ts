import type { CliCommand, CliIO } from '../command';
import { CHAIN_RUN_OPTIONS, ONE_CHAIN_FILE, parseCommandArgs, requireOption } from '../args';
import { UserError } from '../../core/util/errors';
import {
  parseMode,
  planRun as planRunIn,
  startRun as startPlannedRun,
  type RunPlan,
  type StartRunOptions,
} from '../../app/run/startRun';
import { printStatus } from './status';
import { conditionAuthors, parseCondition } from '../../core/codethread/conditions';

const usage = `usage: chainlens checkout <chain-file> --repo <path|url> --dir <workdir> [--mode seq|oracle]
                         [--chain-id <id>] [--instances <id,...>] [--authors <spec>] [--predictions <file>]
                         [--step <k>] [--condition HH|HA|AA|AH]

Checks the chain's repository out into <workdir> at base_commit and starts a run (default: seq).
--repo      a local git repository, or a URL (cloned once into the mirror cache; reopening is offline)
--authors   who writes each step: "human,human,gold" or "1=recorded" (default: human for every step);
            gold/recorded steps are applied and committed automatically. AH = "recorded,human".
--predictions  SWE-bench predictions (.jsonl, .json list or dict) for 'recorded' authors
--condition a CodeThread task's authors instead of --authors: HH = gold,gold; HA = gold,recorded;
            AA = recorded,recorded; AH = recorded,human (the agent's PR1, then a person's PR2)
--step k    start at step k (Oracle: base + gold of steps before k; Seq: earlier steps must be gold/recorded)
Running it again in the same <workdir> starts a new run of the same chain (e.g. the other mode);
uncommitted work is stashed first and the stash is named.`;

export const checkoutCommand: CliCommand = {
  name: 'checkout',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        ...CHAIN_RUN_OPTIONS,
        authors: { type: 'string' },
        step: { type: 'string' },
        condition: { type: 'string' },
      },
      usage,
      ONE_CHAIN_FILE,
    );
    const mode = parseMode(values.mode);
    if (values.condition !== undefined && values.authors !== undefined)
      throw new UserError('give --condition or --authors, not both', 'usage');
    const condition = values.condition === undefined ? undefined : parseCondition(values.condition);
    const startStep = values.step === undefined ? undefined : Number(values.step);
    if (startStep !== undefined && (!/^\s*\d+\s*$/.test(values.step!) || !Number.isInteger(startStep)))
      throw new UserError(`--step must be a step number, not '${values.step}'`, 'usage');
    const plan = await planRun(io, {
      chainFile: positionals[0],
      repo: requireOption(values.repo, '--repo', usage),
      dir: requireOption(values.dir, '--dir', usage),
      mode,
      chainId: values['chain-id'],
      instances: values.instances,
      authors: condition ? conditionAuthors(condition) : values.authors,
      predictions: values.predictions,
      startStep,
      defaultAuthor: 'human',
      condition,
    });
    return startRun(io, plan);
  },
};

export { parseMode, type RunPlan, type StartRunOptions };

/** Shared by checkout, replay and eval: reads and checks every input, and writes nothing. */
export function planRun(io: CliIO, o: StartRunOptions): Promise<RunPlan> {
  return planRunIn(io.cwd, o);
}

/** Starts the planned run (src/app/run) and prints where it stands. */
export async function startRun(io: CliIO, plan: RunPlan): Promise<number> {
  const { workspace, state, notes } = await startPlannedRun(plan, (line) => io.err(line));
  for (const note of notes) io.err(note);
  if (!plan.quietStatus) printStatus(io, state, plan.chain, workspace.dir, false);
  return 0;
}
