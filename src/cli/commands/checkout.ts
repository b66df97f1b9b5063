import type { CliCommand, CliIO } from '../command';
import { ONE_CHAIN_FILE, parseCommandArgs, requireOption } from '../args';
import { readChainFile, readPredictionsOption, recordedPatches } from '../chainInput';
import { UserError } from '../../core/util/errors';
import { resolve } from 'node:path';
import { checkStartStep, parseAuthorsSpec, resolveAuthors, type AuthorKind } from '../../core/run/plan';
import type { Chain } from '../../protocol/chain';
import { RunModeSchema, type RunMode, type StepAuthor } from '../../protocol/run';
import { parseRepoSource, type RepoSource } from '../../infra/git/mirror';
import { checkoutRun } from '../../infra/runs/workspace';
import { printStatus } from './status';
import { conditionAuthors, parseCondition } from '../../core/codethread/conditions';
import type { Condition } from '../../protocol/codethread';

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

export function parseMode(value: string | undefined, fallback: RunMode = 'seq'): RunMode {
  if (value === undefined) return fallback;
  const parsed = RunModeSchema.safeParse(value);
  if (!parsed.success) throw new UserError(`--mode must be seq or oracle, not '${value}'`, 'usage');
  return parsed.data;
}

export const checkoutCommand: CliCommand = {
  name: 'checkout',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        repo: { type: 'string' },
        dir: { type: 'string' },
        mode: { type: 'string' },
        'chain-id': { type: 'string' },
        instances: { type: 'string' },
        authors: { type: 'string' },
        predictions: { type: 'string' },
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
    const plan = planRun(io, {
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

export interface StartRunOptions {
  chainFile: string;
  repo: string;
  dir: string;
  mode: RunMode;
  chainId?: string;
  instances?: string;
  authors?: string;
  predictions?: string;
  startStep?: number;
  defaultAuthor: AuthorKind;
  quietStatus?: boolean;
  /** What the run's lock names as its holder's operation (default: checkout). */
  operation?: string;
  /** A CodeThread condition the authors come from (the chain must be a CodeThread task). */
  condition?: Condition;
}

/** Everything a run start needs, read and checked: what startRun does cannot fail on a bad argument. */
export interface RunPlan {
  chain: Chain;
  chainPath: string;
  source: RepoSource;
  dir: string;
  mode: RunMode;
  authors: StepAuthor[];
  recorded: Record<string, string | null>;
  startStep?: number;
  quietStatus?: boolean;
  /** What the run's lock names as its holder's operation (default: checkout). */
  operation?: string;
}

/** Shared by checkout, replay and eval: reads and checks every input, and writes nothing. */
export function planRun(io: CliIO, o: StartRunOptions): RunPlan {
  const { chain, path: chainPath } = readChainFile(io.cwd, o.chainFile, { chainId: o.chainId, instances: o.instances });
  if (o.condition && !chain.codethread)
    throw new UserError(
      `--condition applies to CodeThread tasks (chainlens codethread build); chain '${chain.id}' is not one`,
      'usage',
    );
  const preds = o.predictions ? readPredictionsOption(io.cwd, o.predictions, chain) : null;
  const kinds = o.authors
    ? parseAuthorsSpec(o.authors, chain.steps.length, o.defaultAuthor)
    : chain.steps.map(() => o.defaultAuthor);
  const authors = resolveAuthors(chain, kinds, preds?.predictions ?? null, preds?.path ?? null);
  checkStartStep(chain, o.mode, kinds, o.startStep);
  const source = parseRepoSource(o.repo, io.cwd);
  return {
    chain,
    chainPath,
    source,
    dir: resolve(io.cwd, o.dir),
    mode: o.mode,
    authors,
    recorded: recordedPatches(preds?.predictions),
    startStep: o.startStep,
    quietStatus: o.quietStatus,
    operation: o.operation,
  };
}

/** Clones (when needed) and starts the planned run; a checkout that fails leaves nothing behind. */
export async function startRun(io: CliIO, plan: RunPlan): Promise<number> {
  const { workspace, state, notes } = await checkoutRun(
    plan.chain,
    plan.source,
    plan.dir,
    {
      chainFile: plan.chainPath,
      mode: plan.mode,
      authors: plan.authors,
      recorded: plan.recorded,
      startStep: plan.startStep,
    },
    (line) => io.err(line),
    plan.operation,
  );
  for (const note of notes) io.err(note);
  if (!plan.quietStatus) printStatus(io, state, plan.chain, workspace.dir, false);
  return 0;
}
