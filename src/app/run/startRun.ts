// Open / start a run: plan it (read chain, predictions and authors; check the start step; nothing
// written), then check the work tree out and start the engine. `chainlens checkout|replay|eval`
// and the editor's Open Chain both end here.
import { resolve } from 'node:path';
import { checkStartStep, parseAuthorsSpec, resolveAuthors, type AuthorKind } from '../../core/run/plan';
import { OptionError } from '../../core/util/errors';
import type { Chain } from '../../protocol/chain';
import { RunModeSchema, type RunMode, type RunState, type StepAuthor } from '../../protocol/run';
import { parseRepoSource, type RepoSource } from '../../infra/git/mirror';
import { checkoutRun, type Workspace } from '../../infra/run/workspace';
import { readChainFile, readPredictionsOption, recordedPatches } from './inputs';
import type { Condition } from '../../protocol/codethread';

/** `--mode` as people type it; a usage error otherwise. */
export function parseMode(value: string | undefined, fallback: RunMode = 'seq'): RunMode {
  if (value === undefined) return fallback;
  const parsed = RunModeSchema.safeParse(value);
  if (!parsed.success) throw new OptionError('mode', `must be seq or oracle, not '${value}'`);
  return parsed.data;
}

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

/** Reads and checks every input of a run, relative to `cwd`, and writes nothing. */
export async function planRun(cwd: string, o: StartRunOptions): Promise<RunPlan> {
  const { chain, path: chainPath } = readChainFile(cwd, o.chainFile, { chainId: o.chainId, instances: o.instances });
  if (o.condition && !chain.codethread)
    throw new OptionError(
      'condition',
      `applies to CodeThread tasks (made by a CodeThread build); chain '${chain.id}' is not one`,
    );
  const preds = o.predictions ? await readPredictionsOption(cwd, o.predictions, chain) : null;
  const kinds = o.authors
    ? parseAuthorsSpec(o.authors, chain.steps.length, o.defaultAuthor)
    : chain.steps.map(() => o.defaultAuthor);
  const authors = resolveAuthors(chain, kinds, preds?.predictions ?? null, preds?.path ?? null);
  checkStartStep(chain, o.mode, kinds, o.startStep);
  const source = parseRepoSource(o.repo, cwd);
  return {
    chain,
    chainPath,
    source,
    dir: resolve(cwd, o.dir),
    mode: o.mode,
    authors,
    recorded: recordedPatches(preds?.predictions),
    startStep: o.startStep,
    quietStatus: o.quietStatus,
    operation: o.operation,
  };
}

export interface StartedRun {
  workspace: Workspace;
  state: RunState;
  /** The chain as the run snapshotted it. */
  chain: Chain;
  /** Things to tell the person (stash locations, patches that did not apply). */
  notes: string[];
}

/** Clones (when needed) and starts the planned run; a checkout that fails leaves nothing behind. */
export async function startRun(plan: RunPlan, log: (line: string) => void): Promise<StartedRun> {
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
    log,
    plan.operation,
  );
  return { workspace, state, chain: workspace.store.loadChain(state.runId) ?? plan.chain, notes };
}
