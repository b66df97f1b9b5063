import type { CliCommand, CliIO } from '../command';
import { parseCommandArgs, requireOption } from '../args';
import { readChainFile, readPredictionsOption, recordedPatches } from '../chainInput';
import { UserError } from '../../core/util/errors';
import { parseAuthorsSpec, resolveAuthors, type AuthorKind } from '../../core/run/plan';
import { RunModeSchema, type RunMode } from '../../protocol/run';
import { parseRepoSource, describeRepoSource } from '../../infra/git/mirror';
import { holdCheckoutTarget, prepareWorkTree } from '../../infra/runs/workspace';
import { printStatus } from './status';

const usage = `usage: chainlens checkout <chain-file> --repo <path|url> --dir <workdir> [--mode seq|oracle]
                         [--chain-id <id>] [--instances <id,...>] [--authors <spec>] [--predictions <file>]
                         [--step <k>]

Checks the chain's repository out into <workdir> at base_commit and starts a run (default: seq).
--repo      a local git repository, or a URL (cloned once into the mirror cache; reopening is offline)
--authors   who writes each step: "human,human,gold" or "1=recorded" (default: human for every step);
            gold/recorded steps are applied and committed automatically. AH = "recorded,human".
--predictions  SWE-bench predictions (.jsonl, .json list or dict) for 'recorded' authors
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
      },
      usage,
    );
    if (positionals.length !== 1) throw new UserError(`expected one chain file\n\n${usage}`, 'usage');
    const mode = parseMode(values.mode);
    const startStep = values.step === undefined ? undefined : Number(values.step);
    if (startStep !== undefined && !Number.isInteger(startStep))
      throw new UserError(`--step must be a step number, not '${values.step}'`, 'usage');
    return startRun(io, {
      chainFile: positionals[0],
      repo: requireOption(values.repo, '--repo', usage),
      dir: requireOption(values.dir, '--dir', usage),
      mode,
      chainId: values['chain-id'],
      instances: values.instances,
      authors: values.authors,
      predictions: values.predictions,
      startStep,
      defaultAuthor: 'human',
    });
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
}

/** Shared by checkout and replay: read and check every input before anything is written. */
export async function startRun(io: CliIO, o: StartRunOptions): Promise<number> {
  const { chain, path: chainPath } = readChainFile(io.cwd, o.chainFile, { chainId: o.chainId, instances: o.instances });
  const preds = o.predictions ? readPredictionsOption(io.cwd, o.predictions, chain) : null;
  const kinds = o.authors
    ? parseAuthorsSpec(o.authors, chain.steps.length, o.defaultAuthor)
    : chain.steps.map(() => o.defaultAuthor);
  const authors = resolveAuthors(chain, kinds, preds?.predictions ?? null, preds?.path ?? null);
  const source = parseRepoSource(o.repo, io.cwd);
  const log = (line: string) => io.err(line);
  // One process at a time makes or reuses this --dir, and one at a time changes its run: a second
  // checkout/replay/eval is refused before it writes anything.
  return holdCheckoutTarget(o.dir, o.operation ?? 'checkout', async () => {
    const ws = await prepareWorkTree(chain, source, o.dir, log);
    const { state, notes } = await ws.store.hold(o.operation ?? 'checkout', () =>
      ws.engine.start({
        chain,
        chainFile: chainPath,
        repoSource: describeRepoSource(source),
        mode: o.mode,
        authors,
        recorded: recordedPatches(preds?.predictions),
        startStep: o.startStep,
        freshClone: ws.freshClone,
      }),
    );
    for (const note of [...ws.notes, ...notes]) io.err(note);
    if (!o.quietStatus) printStatus(io, state, chain, ws.dir, false);
    return 0;
  });
}
