// `chainlens eval` after its arguments are parsed (eval.ts): check every input, replay the chain in
// the work tree, evaluate the steps asked for in containers (the first one started while the
// chain is replayed) and print the table; --report writes the run's JSON report.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CliIO } from '../command';
import { imageReferenceProblem } from '../../core/formats/imageReference';
import { writeFileAtomic } from '../../infra/files';
import { shuttingDown } from '../../infra/process/shutdown';
import { parseTimeout, requireOption } from '../args';
import { UserError } from '../../core/util/errors';
import { isSubset } from '../../core/metrics/chainReport';
import { GradingProfileSchema, type GradingProfile } from '../../protocol/grading';
import type { ChainEvaluation, StepEvaluation } from '../../protocol/evaluation';
import type { WarmContainer } from '../../infra/docker';
import type { EngineAhead } from '../../infra/docker/engineAhead';
import { evaluateSteps, StepContainers } from '../../app/evaluation';
import { repoPathChoice } from '../../core/evaluation/stepSpec';
import { startRun as startPlannedRun, type StartedRun } from '../../app/run/startRun';
import { parseMode, planRun, type RunPlan } from './checkout';
import { table } from '../format';
import { conditionAuthors, conditionOf, parseCondition } from '../../core/codethread/conditions';
import { describeFilter } from '../../core/codethread/filter';

export function parseSteps(spec: string | undefined, orders: number[]): number[] {
  if (spec === undefined) return orders;
  const wanted = new Set<number>();
  for (const part of spec.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new UserError(`--steps '${spec}' is not a step list like 1-3 or 1,3`, 'usage');
    const from = Number(m[1]);
    const to = Number(m[2] ?? m[1]);
    if (to < from) throw new UserError(`--steps '${part.trim()}' runs backwards; write ${to}-${from}`, 'usage');
    for (let k = from; k <= to; k++) {
      if (!orders.includes(k))
        throw new UserError(`--steps names step ${k}, but the chain has steps ${orders.join(', ')}`, 'usage');
      wanted.add(k);
    }
  }
  return orders.filter((o) => wanted.has(o));
}

export function parseProfile(value: string | undefined): GradingProfile {
  if (value === undefined) return 'swebench-v5';
  const parsed = GradingProfileSchema.safeParse(value);
  if (!parsed.success) throw new UserError(`--profile must be swebench-v5 or swebench-v4, not '${value}'`, 'usage');
  return parsed.data;
}

const ratio = (b: { success: string[]; failure: string[] }) =>
  `${b.success.length}/${b.success.length + b.failure.length}`;

export function evaluationTable(steps: StepEvaluation[]): string {
  const rows = [['step', 'instance', 'status', 'F2P', 'P2P', 'time']];
  for (const s of steps)
    rows.push([
      String(s.order),
      s.instance_id,
      s.filter && s.status !== 'error' ? (s.filter.passed ? 'filter passed' : 'filter failed') : s.status,
      ratio(s.tests_status.FAIL_TO_PASS),
      ratio(s.tests_status.PASS_TO_PASS),
      `${s.duration_s.toFixed(1)}s`,
    ]);
  const errors = steps.filter((s) => s.error).map((s) => `  step ${s.order}: ${s.error_kind ?? 'error'}: ${s.error}`);
  const filters = steps
    .filter((s) => s.filter && !s.filter.passed && s.status !== 'error')
    .map((s) => `  step ${s.order}: ${describeFilter(s.filter!)}`);
  return [table(rows), ...errors, ...filters].join('\n');
}

/** The options `chainlens eval` takes (eval.ts parses them before this module has loaded). */
export interface EvalArgs {
  readonly values: Partial<Record<string, string>>;
  readonly positionals: string[];
  readonly usage: string;
}

/**
 * `chainlens eval` once its arguments are parsed: plan, replay, evaluate, report. `ahead` is the
 * engine asked while this module loaded (infra/docker/engineAhead.ts); a container it started is
 * taken by the first step or removed.
 */
export async function runEval(
  io: CliIO,
  { values, positionals, usage }: EvalArgs,
  ahead: EngineAhead,
): Promise<number> {
  const warmAhead = ahead.warm;
  try {
    return await planAndEvaluate(io, values, positionals, usage, ahead);
  } finally {
    await (await warmAhead)?.discard();
  }
}

async function planAndEvaluate(
  io: CliIO,
  values: Partial<Record<string, string>>,
  positionals: string[],
  usage: string,
  ahead: EngineAhead,
): Promise<number> {
  const predictions = requireOption(values.predictions, '--predictions', usage);
  const condition = values.condition === undefined ? undefined : parseCondition(values.condition);
  if (condition === 'AH')
    throw new UserError('--condition AH has a person write step 2: use chainlens checkout --condition AH', 'usage');
  if (condition && condition !== 'HH' && predictions === 'gold')
    throw new UserError(`--condition ${condition} needs the agent's patches: give --predictions <file>`, 'usage');
  const profile = parseProfile(values.profile);
  const timeoutS = parseTimeout(values.timeout);
  const mode = parseMode(requireOption(values.mode, '--mode', usage));
  const dir = requireOption(values.dir, '--dir', usage);
  // Every argument is checked before the chain is cloned or replayed (nothing is written on a mistake).
  const plan = await planRun(io, {
    chainFile: positionals[0],
    repo: requireOption(values.repo, '--repo', usage),
    dir,
    mode,
    chainId: values['chain-id'],
    instances: values.instances,
    predictions: predictions === 'gold' ? undefined : predictions,
    defaultAuthor: predictions === 'gold' ? 'gold' : 'recorded',
    ...(condition ? { authors: conditionAuthors(condition), condition } : {}),
    quietStatus: true,
    operation: 'eval (replay)',
  });
  const orders = parseSteps(
    values.steps,
    plan.chain.steps.map((s) => s.order),
  );
  replayOnlyWhatIsEvaluated(plan, orders);
  const image = chosenImage(values.image, plan.chain.dockerImage, plan.chain.id);
  const repoPathInImage = parseRepoPathInImage(values['repo-path-in-image']);
  const report = values.report === undefined ? undefined : checkReportPath(resolve(io.cwd, values.report));
  // Fail before replaying anything when no engine answers or the image is not there to be had
  // (asked while this module loaded: usually answered by now).
  // Where the image holds the repository is probed while the chain is replayed; when it holds
  // none, each container started ahead takes the copy on its stdin.
  const containers = await StepContainers.prepare(
    await ahead.docker,
    { image, baseCommit: plan.chain.baseCommit, repoPath: repoPathChoice(repoPathInImage) },
    { lookedUp: await ahead.lookUp(image), label: 'eval' },
  );
  // The first step's container starts while the chain is checked out and replayed (unless it was
  // started already, for an --image named up front). The copy comes from the source repository,
  // which holds the same base commit as the work tree being made.
  const warm = containers.adoptOrStart(await ahead.warm, plan.source.kind === 'path' ? plan.source.path : undefined);
  try {
    const started = await startPlannedRun(plan, (line) => io.err(line));
    for (const note of started.notes) io.err(note);
    return await evaluateRun(io, started, {
      orders,
      profile,
      timeoutS,
      image: values.image,
      repoPathInImage,
      report,
      warm,
      containers,
    });
  } finally {
    // Removed if no step took it (a failed checkout, a step that ran nothing).
    await warm.discard();
  }
}

/**
 * `--steps` evaluates some steps: replaying the others would be wasted work. Steps after the last
 * one evaluated are left unsolved (authored by a person, so the replay stops before them), and an
 * Oracle run starts at the first one evaluated (its start is base + gold of the steps before,
 * whatever happened to them). A Seq step depends on every step before it: those are replayed.
 */
function replayOnlyWhatIsEvaluated(plan: RunPlan, orders: number[]): void {
  const last = Math.max(...orders);
  plan.authors = plan.authors.map((a, i) => (plan.chain.steps[i].order > last ? { kind: 'human' } : a));
  if (plan.mode === 'oracle' && orders[0] !== plan.chain.steps[0].order) plan.startStep = orders[0];
}

/** The image to evaluate in: --image, else the chain's; either must be a valid image name. */
function chosenImage(flag: string | undefined, chainImage: string | null, chainId: string): string {
  if (flag !== undefined) {
    const problem = imageReferenceProblem(flag);
    if (problem) throw new UserError(`--image: ${problem}`, 'usage');
    return flag;
  }
  if (!chainImage) throw new UserError(`chain '${chainId}' names no docker_image; give one with --image`, 'usage');
  return chainImage;
}

/** --repo-path-in-image: an absolute path, or `none` (the image lacks the repository: copy it in, null). */
export function parseRepoPathInImage(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value.toLowerCase() === 'none') return null;
  if (!value.startsWith('/'))
    throw new UserError(`--repo-path-in-image must be an absolute path in the image or none, not '${value}'`, 'usage');
  return value;
}

/** --report is written at the end of a long evaluation: find out now that it cannot be. */
function checkReportPath(path: string): string {
  const parent = dirname(path);
  if (!existsSync(parent) || !statSync(parent).isDirectory())
    throw new UserError(`--report ${path}: the directory ${parent} does not exist`, 'usage');
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UserError(`--report ${path} is a directory; name a file`, 'usage');
  return path;
}

/** A subset of the steps says so: only the whole chain can be (or not be) resolved as a chain. */
export function fullChainVerdict(report: ChainEvaluation): string {
  if (isSubset(report))
    return `steps ${report.steps.map((s) => s.order).join(', ')} of ${report.chain_orders!.length} evaluated (a subset): no full-chain verdict`;
  return `full chain ${report.full_chain_resolved ? 'resolved' : 'not resolved'}`;
}

async function evaluateRun(
  io: CliIO,
  started: StartedRun,
  o: {
    orders: number[];
    profile: GradingProfile;
    timeoutS?: number;
    image?: string;
    repoPathInImage?: string | null;
    report?: string;
    warm?: WarmContainer;
    containers?: StepContainers;
  },
): Promise<number> {
  // The workspace the replay made (no second look for the repository).
  const ws = started.workspace;
  const { state, chain, notes } = await ws.engine.open();
  for (const note of notes) io.err(note);
  const orders = o.orders;
  const abort = new AbortController();
  const onSigint = () => {
    io.err('cancelling: removing the container…');
    abort.abort();
  };
  process.once('SIGINT', onSigint);
  let results: StepEvaluation[] = [];
  let report: ChainEvaluation;
  try {
    ({ results, report } = await evaluateSteps(
      ws,
      state,
      chain.id,
      {
        orders,
        source: 'submitted',
        image: o.image,
        repoPathInImage: o.repoPathInImage,
        timeoutS: o.timeoutS,
        profile: o.profile,
        signal: abort.signal,
        warm: o.warm,
        containers: o.containers,
      },
      (phase, order, result) => {
        if (phase === 'start') io.err(`step ${order}: evaluating…`);
        else if (result)
          io.err(
            `step ${order}: ${result.filter && result.status !== 'error' ? describeFilter(result.filter) : result.status} (F2P ${ratio(result.tests_status.FAIL_TO_PASS)}, P2P ${ratio(result.tests_status.PASS_TO_PASS)}) log: ${result.log_path}`,
          );
      },
    ));
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  // A CodeThread task's condition, from the run's authors (docs/reference/codethread.md).
  const condition = chain.codethread ? conditionOf(state.steps.map((s) => s.author)) : null;
  if (condition) report = { ...report, condition };
  io.out(
    `chain ${chain.id}  run ${state.runId}  mode ${state.mode}  profile ${o.profile}${condition ? `  condition ${condition}` : ''}\n`,
  );
  io.out(evaluationTable(results));
  io.out(`\nresolved ${report.resolved_steps}/${results.length} step(s); ${fullChainVerdict(report)}`);
  // SIGTERM/SIGHUP: the process ends once its containers are gone; a report of steps it cut
  // short would not be the chain's (docs/run-state.md, "Signals").
  if (shuttingDown() && !abort.signal.aborted) return 143;
  if (o.report) {
    writeFileAtomic(o.report, JSON.stringify(report, null, 2) + '\n', { shared: true });
    io.err(`report written to ${o.report}`);
  }
  if (abort.signal.aborted) return 130;
  // A step the environment kept from being evaluated (engine gone, image broken, out of memory) is
  // no result: the run's exit code says so, as the README's "bad state" (1).
  const unevaluated = results.filter((r) => r.error_kind === 'environment');
  if (unevaluated.length) {
    io.err(
      `${unevaluated.length} step(s) could not be evaluated: ${unevaluated.map((r) => `step ${r.order}: ${r.error}`).join('; ')}`,
    );
    return 1;
  }
  return 0;
}
