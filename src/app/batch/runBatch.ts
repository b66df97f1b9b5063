import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { BatchEvent, BatchManifest, BatchRecord, BatchRepeats } from '../../protocol/batch';
import type { Chain } from '../../protocol/chain';
import type { StepAuthor } from '../../protocol/run';
import {
  BatchScheduler,
  laneId,
  summarizeRepeats,
  type LaneKey,
  type LanePlan,
  type RunTests,
  type StepKey,
} from '../../core/batch';
import { OptionError, UserError, isUserError } from '../../core/util/errors';
import { BatchRunDir } from '../../infra/batch/runDir';
import { loadSource, type LoadedSource } from '../../infra/batch/sources';
import {
  assertEngineReady,
  connectDocker,
  ensureImage,
  orphanSweepSettled,
  type EvaluationEngine,
} from '../../infra/docker';
import { evaluateStep } from '../evaluation/evaluateStep';
import { parseRepoSource } from '../../infra/git/mirror';
import { withDataRoot } from '../../infra/run/stateDir';
import { orShutdown } from '../../infra/process/shutdown';
import { checkoutRun, type Workspace } from '../../infra/run/workspace';
import { readDataset } from '../../infra/batch/dataset';
import { analyzeBatchStep } from './stepAnalysis';
import { agentSourceStep, AGENT_PATCH_FILE, stopLeftoverAgents } from './agentSource';
import { manifestEvaluation } from './manifestEvaluation';

export interface RunBatchOptions {
  readonly runDir: string;
  readonly workers?: number;
  /** Run again the steps whose record says the environment failed them (infra_failure). */
  readonly retryFailed?: boolean;
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: BatchEvent) => void;
  /** Each record the moment it is written (the Runs view updates its counts from these). */
  readonly onRecord?: (r: BatchRecord) => void;
  /** Lines for a person (lanes prepared, images pulled). */
  readonly onNote?: (line: string) => void;
  /** Where each graded step runs (docs/scaling.md); not part of the batch, so a resume may change it. */
  readonly engine?: EvaluationEngine;
}

export interface BatchOutcome {
  readonly manifest: BatchManifest;
  readonly records: BatchRecord[];
  readonly ranHere: number;
  readonly cancelled: boolean;
}

/**
 * What the engine can bear by default: one evaluation per core (each runs a test suite), at
 * least one. docs/scaling.md has the figures behind it.
 */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Runs (or resumes) the batch in `runDir`, whose manifest createBatch wrote: every (chain, source,
 * mode, step) without a record is evaluated, `workers` at a time, fair across lanes
 * (BatchScheduler), and its record written atomically as soon as it is done. A killed batch
 * resumes where it stopped: finished steps keep their records and are never run again.
 */
export async function runBatch(o: RunBatchOptions): Promise<BatchOutcome> {
  const dir = new BatchRunDir(o.runDir);
  const manifest = dir.readManifest();
  const lock = dir.lock();
  try {
    return await withDataRoot(dir.stateRoot, () => runLocked(dir, manifest, o));
  } finally {
    lock.release();
  }
}

async function runLocked(dir: BatchRunDir, manifest: BatchManifest, options: RunBatchOptions): Promise<BatchOutcome> {
  // Ctrl-C, or a signal to this process (SIGTERM): no step starts, and none cut short is recorded.
  const o: RunBatchOptions = { ...options, signal: orShutdown(options.signal) };
  const note = o.onNote ?? (() => {});
  const chains = await chainsOf(manifest);
  const sources = new Map(manifest.sources.map((s) => [s.name, loadSource(s)]));
  const docker = await connectDocker();
  await assertEngineReady(o.engine ?? 'local', docker);
  const agentImage = manifest.options.agent_in === 'container' ? manifest.options.agent_image : null;
  for (const image of new Set([
    ...manifest.chains.map((c) => manifest.options.image ?? c.image),
    ...(agentImage ? [agentImage] : []),
  ])) {
    try {
      await ensureImage(image, undefined, docker);
    } catch (e) {
      const users = manifest.chains.filter((c) => (manifest.options.image ?? c.image) === image).map((c) => c.id);
      throw new UserError(
        `${isUserError(e) ? e.message : String(e)} (the image of chain ${users.slice(0, 5).join(', ')}${users.length > 5 ? ', …' : ''})`,
        'environment',
      );
    }
  }
  // Agents a killed batch left running are stopped before their work trees are cleared: host
  // process groups here, containers by the sweep connecting started (awaited).
  if (manifest.sources.some((s) => s.kind === 'agent')) {
    stopLeftoverAgents(dir.root);
    await orphanSweepSettled();
  }
  dir.clearLeftovers();

  const existing = dir.readRecords();
  const done = new Map(
    existing.map((r) => [laneId({ chainId: r.chain_id, source: r.source, mode: r.mode }) + `/${r.order}`, r]),
  );
  const isDone = (k: StepKey) => {
    const r = done.get(`${laneId(k)}/${k.order}`);
    return r !== undefined && !(o.retryFailed && r.infra_failure);
  };
  const plans: LanePlan[] = [];
  // Chain-major within each source and mode, so the turns go chain 1, 2, 3, ... of one lane kind.
  for (const mode of manifest.modes)
    for (const source of manifest.sources)
      for (const c of manifest.chains) {
        const key: LaneKey = { chainId: c.id, source: source.name, mode };
        plans.push({
          ...key,
          orders: c.steps.map((s) => s.order).filter((order) => !isDone({ ...key, order })),
          sequential: source.kind === 'agent',
        });
      }
  const total =
    manifest.chains.reduce((n, c) => n + c.steps.length, 0) * manifest.sources.length * manifest.modes.length;
  let doneCount = total - plans.reduce((n, p) => n + p.orders.length, 0);
  const workers = Math.max(1, o.workers ?? defaultWorkers());
  o.onEvent?.({ event: 'start', total, done: doneCount, workers, run_dir: dir.root });

  const scheduler = new BatchScheduler(plans);
  const lanes = new Map<string, Promise<Workspace>>();
  const records: BatchRecord[] = [];
  /** Steps holding a worker: their lane being prepared, or their container running. */
  let running = 0;
  /** Steps started whose record is not written yet (a step frees its worker before that). */
  let unfinished = 0;
  /** Work trees of finished lanes being removed, off the path of the next step. */
  const removals = new Set<Promise<void>>();
  let failure: unknown;

  const prepare = (k: LaneKey): Promise<Workspace> => {
    const id = laneId(k);
    let ws = lanes.get(id);
    if (!ws) {
      ws = prepareLane(dir, manifest, chains.get(k.chainId)!, sources.get(k.source)!, k, (order) =>
        isDone({ ...k, order }),
      );
      lanes.set(id, ws);
      ws.catch(() => undefined);
    }
    return ws;
  };
  const finishLane = async (k: LaneKey) => {
    const ws = await lanes.get(laneId(k))?.catch(() => undefined);
    lanes.delete(laneId(k));
    if (ws) {
      await rm(ws.store.root, { recursive: true, force: true });
      await rm(ws.dir, { recursive: true, force: true });
    }
    note(`${laneId(k)}: done`);
  };

  /** `release` frees the step's worker: called when its container is done, before the record is made. */
  const runOne = async (k: StepKey, release: () => void) => {
    const chain = chains.get(k.chainId)!;
    const source = sources.get(k.source)!;
    let record: BatchRecord | null;
    try {
      const ws = await prepare(k);
      let agent: AgentPart | undefined;
      if (source.source.kind === 'agent') {
        // The agent's step holds the worker: it is the step's work, as a container's tests are.
        const ran = await agentSourceStep(dir, manifest, chain, source.source, k, ws, o.signal);
        if (!ran) return; // cancelled: the step stays unrecorded and runs again on resume
        agent = ran;
      }
      record = await evaluateOne(dir, manifest, chain, source, k, ws, o.signal, o.engine, release, agent);
    } catch (e) {
      if (o.signal?.aborted) return;
      if (!isUserError(e)) throw e;
      // The lane could not be set up (a gold patch that does not apply, a repository without the
      // base commit): each of its steps is recorded as failed by the environment, with the reason.
      record = failedRecord(chain, source, k, e.message);
    }
    // Cancelled, or cut short by a signal (its lane's set-up failing under it too): no verdict,
    // nothing recorded; the step runs again on resume (docs/reference/batch.md).
    if (!record || o.signal?.aborted) return;
    dir.writeRecord(record);
    records.push(record);
    o.onRecord?.(record);
    doneCount++;
    o.onEvent?.({
      event: 'step',
      chain_id: k.chainId,
      source: k.source,
      mode: k.mode,
      order: k.order,
      status: record.infra_failure ? `infra failure: ${record.error}` : record.status,
      done: doneCount,
      total,
    });
  };

  // docs/scaling.md, "Where a batch's time goes": a worker is busy only while a step's lane is
  // prepared or its container runs. The analysis and record of a step, the removal of a finished
  // lane and the preparation of the lanes next in turn happen beside the running containers.
  await new Promise<void>((resolveAll) => {
    const pump = () => {
      while (!failure && !o.signal?.aborted && running < workers) {
        const step = scheduler.next();
        if (!step) break;
        running++;
        unfinished++;
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          running--;
          pump();
        };
        runOne(step, release)
          .catch((e: unknown) => (failure ??= e))
          .finally(() => {
            unfinished--;
            if (scheduler.finished(step)) {
              const removal = finishLane(step).finally(() => removals.delete(removal));
              removals.add(removal);
            }
            release();
            pump();
          });
      }
      if (!failure && !o.signal?.aborted) for (const k of scheduler.upcoming(workers)) void prepare(k).catch(() => {});
      if (unfinished === 0 && (failure || o.signal?.aborted || scheduler.drained)) resolveAll();
    };
    pump();
  });
  // Lanes prepared ahead and removals under way finish before their folders are cleared.
  await Promise.allSettled([...lanes.values(), ...removals]);
  // Work trees of lanes cut short (cancel, failure) are not results: only records are.
  for (const id of lanes.keys()) rmSync(join(dir.workRoot, id), { recursive: true, force: true });
  rmSync(dir.workRoot, { recursive: true, force: true });
  rmSync(dir.stateRoot, { recursive: true, force: true });
  // Containers of killed batches on this engine are removed by the sweep connecting started.
  await orphanSweepSettled();
  if (failure) throw failure;
  const cancelled = o.signal?.aborted ?? false;
  const all = dir.readRecords();
  o.onEvent?.({
    event: 'end',
    done: doneCount,
    total,
    infra_failures: all.filter((r) => r.infra_failure).length,
    cancelled,
  });
  return { manifest, records: all, ranHere: records.length, cancelled };
}

export async function chainsOf(manifest: BatchManifest): Promise<Map<string, Chain>> {
  const files = [...new Set(manifest.dataset)];
  const read = await readDataset('/', files);
  const byId = new Map(read.map((c) => [c.chain.id, c.chain]));
  const missing = manifest.chains.filter((c) => !byId.has(c.id)).map((c) => c.id);
  if (missing.length)
    throw new UserError(
      `the dataset no longer holds chain(s) ${missing.slice(0, 5).join(', ')} that the run directory's manifest names`,
      'input',
    );
  return byId;
}

export function repoFor(manifest: BatchManifest, chain: Chain): string {
  const repo = manifest.repos[chain.repo] ?? manifest.repos['*'];
  if (!repo) throw new OptionError('repo', `no repository for ${chain.repo} (chain ${chain.id})`);
  return repo;
}

/** What an agent source's step adds to its record. */
interface AgentPart {
  readonly outcome: NonNullable<BatchRecord['agent']>;
}

/**
 * The lane's work tree, checked out and replayed by the run engine (every step authored). An
 * agent lane's recorded steps are replayed from the patches their agent left (kept in the run
 * directory), so a resumed lane's next step starts where the agent's own last step ended.
 */
async function prepareLane(
  dir: BatchRunDir,
  manifest: BatchManifest,
  chain: Chain,
  source: LoadedSource,
  k: LaneKey,
  recordedStep: (order: number) => boolean,
): Promise<Workspace> {
  const workdir = join(dir.workRoot, laneId(k));
  const gold = source.source.kind === 'gold';
  const agent = source.source.kind === 'agent';
  const agentPatch = (order: number): string | null => {
    const file = join(dir.root, 'agent', laneId(k), `step-${order}`, AGENT_PATCH_FILE);
    return recordedStep(order) && existsSync(file) ? readFileSync(file, 'utf8') : null;
  };
  const authors: StepAuthor[] = chain.steps.map((s) =>
    gold
      ? { kind: 'gold' }
      : agent
        ? agentPatch(s.order) !== null
          ? { kind: 'recorded', model: source.source.name, source: `agent ${source.source.name}` }
          : { kind: 'agent-live', agent: source.source.name }
        : {
            kind: 'recorded',
            model: source.predictions.get(s.instanceId)?.model ?? 'unknown',
            source: source.source.path!,
          },
  );
  const recorded = gold
    ? {}
    : agent
      ? Object.fromEntries(chain.steps.map((s) => [s.instanceId, agentPatch(s.order)]))
      : Object.fromEntries(chain.steps.map((s) => [s.instanceId, source.predictions.get(s.instanceId)?.patch ?? null]));
  const origin = manifest.chains.find((c) => c.id === chain.id)!.origin;
  const { workspace } = await checkoutRun(
    chain,
    parseRepoSource(repoFor(manifest, chain), '/'),
    workdir,
    { chainFile: origin.replace(/:\d+$/, ''), mode: k.mode === 'oracle' ? 'oracle' : 'seq', authors, recorded },
    () => {},
    'batch',
  );
  return workspace;
}

async function evaluateOne(
  dir: BatchRunDir,
  manifest: BatchManifest,
  chain: Chain,
  source: LoadedSource,
  k: StepKey,
  ws: Workspace,
  signal: AbortSignal | undefined,
  engine: EvaluationEngine | undefined,
  release: () => void,
  agent?: AgentPart,
): Promise<BatchRecord | null> {
  const evaluate = () =>
    evaluateStep({
      dir: ws.dir,
      workspace: ws,
      step: k.order,
      source: 'submitted',
      ...manifestEvaluation(manifest),
      signal,
      engine,
    });
  const result = await evaluate();
  if (result.error_kind === 'cancelled') return null;
  const log = dir.keepLog(k, result.log_path);
  // --repeats: the same commit graded again, holding the worker (each run is a container). The
  // first run stays the verdict; the others only tell which tests change between identical runs.
  let repeats: BatchRepeats | undefined;
  const times = manifest.options.repeats ?? 1;
  if (times > 1 && tested(result)) {
    const runs: RunTests[] = [{ resolved: result.resolved, tests: result.tests_status }];
    for (let run = 2; run <= times; run++) {
      const again = await evaluate();
      if (again.error_kind === 'cancelled') return null;
      dir.keepLog(k, again.log_path, run);
      if (tested(again)) runs.push({ resolved: again.resolved, tests: again.tests_status });
    }
    repeats = summarizeRepeats(runs);
  }
  release();
  const index = chain.steps.findIndex((s) => s.order === k.order);
  const chainStep = chain.steps[index];
  let analysis = null;
  if (k.mode !== 'oracle') {
    const { state } = await ws.engine.open();
    const step = state.steps[index];
    if (step.start && step.end)
      analysis = await analyzeBatchStep(
        ws.dir,
        step.start,
        await ws.git.diff(step.start, step.end),
        chainStep.goldPatch,
      );
  }
  return {
    ...recordOf(chain, source, k),
    status: result.status,
    resolved: result.resolved,
    error: result.error,
    error_kind: result.error_kind,
    infra_failure: result.error_kind === 'environment',
    tests_status: { FAIL_TO_PASS: result.tests_status.FAIL_TO_PASS, PASS_TO_PASS: result.tests_status.PASS_TO_PASS },
    duration_s: result.duration_s,
    log,
    analysis,
    cost: agent ? agent.outcome.cost_usd : (source.costs.get(chainStep.instanceId) ?? null),
    peak_context_tokens: source.peakContext.get(chainStep.instanceId) ?? null,
    ...(agent ? { agent: agent.outcome } : {}),
    ...(repeats ? { repeats } : {}),
    finished_at: new Date().toISOString(),
  };
}

/** The step's tests ran to a verdict (not an empty patch, a patch that failed, or the environment). */
function tested(e: { status: string }): boolean {
  return e.status === 'resolved' || e.status === 'unresolved';
}

/** What every record of step `k` says whatever its outcome: which step, of which lane, by whom. */
function recordOf(chain: Chain, source: LoadedSource, k: StepKey) {
  const index = chain.steps.findIndex((s) => s.order === k.order);
  const step = chain.steps[index];
  return {
    version: 1 as const,
    chain_id: chain.id,
    source: k.source,
    mode: k.mode,
    order: k.order,
    position: index + 1,
    instance_id: step.instanceId,
    model:
      source.source.kind === 'gold'
        ? 'gold'
        : source.source.kind === 'agent'
          ? source.source.name
          : (source.predictions.get(step.instanceId)?.model ?? null),
  };
}

function failedRecord(chain: Chain, source: LoadedSource, k: StepKey, error: string): BatchRecord {
  const step = chain.steps.find((s) => s.order === k.order)!;
  return {
    ...recordOf(chain, source, k),
    status: 'error',
    resolved: false,
    error,
    error_kind: 'environment',
    infra_failure: true,
    tests_status: {
      FAIL_TO_PASS: { success: [], failure: [...step.failToPass] },
      PASS_TO_PASS: { success: [], failure: [...step.passToPass] },
    },
    duration_s: 0,
    log: '',
    analysis: null,
    cost: null,
    finished_at: new Date().toISOString(),
  };
}
