import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_ITERATION_LIMIT } from '../../core/sweci';
import { DEFAULT_SWECI_POLICIES } from '../../core/sweci/policies';
import { isUserError, UserError } from '../../core/util/errors';
import type { SweciPolicies, SweciRecord } from '../../protocol/sweci';
import type { SweciBatchAgent, SweciBatchManifest } from '../../protocol/sweciBatch';
import { writeFileAtomic } from '../../infra/files';
import { orShutdown } from '../../infra/process/shutdown';
import { withDataRoot } from '../../infra/run/stateDir';
import { SweciBatchDir } from '../../infra/sweci/batchDir';
import { readSplit } from '../../infra/sweci/dataset';
import { prepareTask, startTask, type PreparedTask } from './initTask';
import { currentIteration, openTask } from './openTask';
import { rolePidFile, runLoop } from './runLoop';
import { endLeftRole } from '../../infra/sweci/roleCommand';
import { gradePendingIterations } from './submitIteration';

export interface CreateSweciBatchRequest {
  runDir: string;
  datasetDir: string;
  split: string;
  agents: SweciBatchAgent[];
  /** Only these tasks of the split (default: all, in the metadata's order). */
  tasks?: string[];
  limit?: number;
  timeoutS?: number;
  roleTimeoutS?: number;
  policies?: Partial<SweciPolicies>;
}

/**
 * Writes a SWE-CI batch's manifest after reading and checking the split (every row, every named
 * task) and the agents; nothing is written when any check fails. A run directory that holds a
 * batch already is refused: it is resumed with `chainlens batch --run-dir` alone.
 */
export function createSweciBatch(req: CreateSweciBatchRequest): SweciBatchManifest {
  const dir = new SweciBatchDir(req.runDir);
  if (SweciBatchDir.isOne(dir.root))
    throw new UserError(
      `${dir.root} holds a SWE-CI batch already; resume it by naming this run directory alone`,
      'usage',
    );
  if (existsSync(dir.root) && readdirNonEmpty(dir.root))
    throw new UserError(`the run directory ${dir.root} exists and is not empty; give a new folder`, 'usage');
  const { file, rows } = readSplit(req.datasetDir, req.split);
  const ids = rows.map((r) => r.row.task_id);
  for (const t of req.tasks ?? []) if (!ids.includes(t)) throw new UserError(`task '${t}' is not in ${file}`, 'input');
  const names = req.agents.map((a) => a.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new UserError(`agent '${twice}' is given twice; each agent needs its own name`, 'usage');
  const manifest: SweciBatchManifest = {
    schema: 1,
    kind: 'swe-ci',
    datasetDir: resolve(req.datasetDir),
    split: req.split,
    tasks: req.tasks?.length ? ids.filter((t) => req.tasks!.includes(t)) : ids,
    agents: req.agents,
    limit: req.limit ?? DEFAULT_ITERATION_LIMIT,
    timeoutS: req.timeoutS ?? 3600,
    roleTimeoutS: req.roleTimeoutS ?? 3600,
    policies: { ...DEFAULT_SWECI_POLICIES, ...req.policies },
    createdAt: new Date().toISOString(),
  };
  if (manifest.tasks.length === 0) throw new UserError(`${file} has no task`, 'input');
  mkdirSync(dir.root, { recursive: true });
  dir.writeManifest(manifest);
  return manifest;
}

function readdirNonEmpty(path: string): boolean {
  try {
    return readdirSync(path).length > 0;
  } catch {
    return false;
  }
}

/** How one agent's run of one task ended in this call. */
export interface SweciJobOutcome {
  agent: string;
  taskId: string;
  /** done: the loop stopped (gap closed or limit); refused: the task fails SWE-CI's checks; failed: a role or the engine failed. */
  status: 'done' | 'refused' | 'failed' | 'cancelled';
  record: SweciRecord | null;
  message: string | null;
}

export interface RunSweciBatchOptions {
  runDir: string;
  /** Tasks run at the same time (each task's iterations run in order). */
  workers?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** The data root a SWE-CI batch keeps its work trees' state in (inside the run directory). */
export function sweciBatchStateRoot(runDir: string): string {
  return join(new SweciBatchDir(runDir).root, 'state');
}

/**
 * Runs (or resumes) a SWE-CI batch: every (agent, task) pair, `workers` pairs at a time, each
 * pair's iterations in order through SWE-CI's loop. A task is prepared once for all agents (image
 * loaded, base and oracle measured); each agent's run starts from it. Safe to kill at any moment:
 * a graded iteration is kept; one under way is run again from its start state (its Architect and
 * Programmer again, the work tree reset to where it began); a half-made preparation or work tree
 * is made again. The harness resumes the same way, by experiment name (run.py, `_run`).
 */
export async function runSweciBatch(o: RunSweciBatchOptions): Promise<SweciJobOutcome[]> {
  const dir = new SweciBatchDir(o.runDir);
  const manifest = dir.readManifest();
  const lock = dir.lock();
  try {
    return await withDataRoot(sweciBatchStateRoot(dir.root), () => runHeld(dir, manifest, o));
  } finally {
    lock.release();
  }
}

async function runHeld(dir: SweciBatchDir, m: SweciBatchManifest, o: RunSweciBatchOptions): Promise<SweciJobOutcome[]> {
  const signal = orShutdown(o.signal);
  const log = o.log ?? (() => {});
  const prepared = new Map<string, Promise<PreparedTask>>();
  const prepare = (taskId: string) => {
    let p = prepared.get(taskId);
    if (!p) prepared.set(taskId, (p = preparedTask(dir, m, taskId, log)));
    return p;
  };
  // Task-major: both agents of a task run close together, so its preparation is shared while fresh.
  const jobs = m.tasks.flatMap((taskId) => m.agents.map((agent) => ({ agent, taskId })));
  const outcomes: SweciJobOutcome[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const k = next++;
      outcomes[k] = await runJob(dir, m, jobs[k].agent, jobs[k].taskId, prepare, signal, log);
    }
  };
  const n = Math.max(1, Math.min(o.workers ?? 1, jobs.length));
  await Promise.all(Array.from({ length: n }, worker));
  return outcomes;
}

/** A task measured once for the batch; a task SWE-CI's checks refuse is remembered as refused. */
async function preparedTask(
  dir: SweciBatchDir,
  m: SweciBatchManifest,
  taskId: string,
  log: (line: string) => void,
): Promise<PreparedTask> {
  const folder = dir.preparedDir(taskId);
  const done = join(folder, 'prepared.json');
  const refused = join(folder, 'refused.json');
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as PreparedTask;
  if (existsSync(refused))
    throw new UserError((JSON.parse(readFileSync(refused, 'utf8')) as { message: string }).message, 'input');
  // A preparation cut short leaves a partial folder: it is made again from nothing.
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  try {
    const p = await prepareTask(
      { datasetDir: m.datasetDir, split: m.split, taskId, limit: m.limit, timeoutS: m.timeoutS, log },
      folder,
    );
    writeFileAtomic(done, JSON.stringify(p, null, 2) + '\n');
    return p;
  } catch (e) {
    if (isUserError(e) && e.kind === 'input') writeFileAtomic(refused, JSON.stringify({ message: e.message }) + '\n');
    throw e;
  }
}

async function runJob(
  dir: SweciBatchDir,
  m: SweciBatchManifest,
  agent: SweciBatchAgent,
  taskId: string,
  prepare: (taskId: string) => Promise<PreparedTask>,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<SweciJobOutcome> {
  const say = (line: string) => log(`[${agent.name} ${taskId}] ${line}`);
  const work = dir.workTree(agent.name, taskId);
  const outcome = (status: SweciJobOutcome['status'], record: SweciRecord | null, message: string | null) => ({
    agent: agent.name,
    taskId,
    status,
    record,
    message,
  });
  let record: SweciRecord | null = null;
  try {
    if (signal.aborted) return outcome('cancelled', null, null);
    const p = await prepare(taskId);
    if (!(await hasRecord(work))) {
      // A start cut short (or never made): the work tree is the batch's own, made again.
      rmSync(work, { recursive: true, force: true });
      mkdirSync(join(work, '..'), { recursive: true });
      await startTask(p, work, m.policies, say);
    }
    for (;;) {
      if (signal.aborted) return outcome('cancelled', record, null);
      await cleanBeforeGrading(work);
      record = await gradePendingIterations(work, say);
      const iteration = currentIteration(record);
      if (iteration === null) return outcome('done', record, null);
      await resetToIterationStart(work, iteration);
      record = await runLoop({
        dir: work,
        architect: agent.architect,
        programmer: agent.programmer,
        agentName: agent.name,
        roleTimeoutS: m.roleTimeoutS,
        iterations: 1,
        signal,
        log: say,
      });
    }
  } catch (e) {
    if (signal.aborted) return outcome('cancelled', record, null);
    if (!isUserError(e)) throw e;
    say(e.message);
    return outcome(e.kind === 'input' && !record ? 'refused' : 'failed', record, e.message);
  }
}

async function hasRecord(work: string): Promise<boolean> {
  if (!existsSync(work)) return false;
  try {
    await openTask(work, undefined, true);
    return true;
  } catch {
    return false;
  }
}

/**
 * Puts the work tree back where iteration `iteration` began (its step's start, or the restored
 * code after a discarded iteration) and forgets its requirement: an iteration a kill cut short is
 * run again from its start state, its roles again. The work tree is the batch's own: nothing of
 * a person's is in it.
 */
async function resetToIterationStart(work: string, iteration: number): Promise<void> {
  const { ws, state, record, store } = await openTask(work);
  endLeftRole(rolePidFile(store, record.runId, iteration));
  const previous = record.iterations[record.iterations.length - 1];
  const start = previous?.discarded?.restoredAs ?? state.steps[iteration - 1].start;
  if (!start) return;
  await ws.git.raw(['reset', '--quiet', '--hard', start]);
  await ws.git.raw(['clean', '-fdq']);
  // What the cut-short attempt left for this iteration: its requirement, its reset test changes.
  rmSync(store.requirementPath(record.runId, iteration), { force: true });
  rmSync(join(store.iterationDir(record.runId, iteration), 'tests-reset.diff'), { force: true });
}

/**
 * A kill after an iteration's submit and before its grade can leave the work tree half-way
 * through putting back discarded code: its commit (HEAD) is what to grade from, so anything
 * uncommitted goes (the work tree is the batch's own).
 */
async function cleanBeforeGrading(work: string): Promise<void> {
  const { ws, state, record } = await openTask(work);
  const pending = state.steps.some((s) => s.status === 'submitted' && s.order > record.iterations.length);
  if (!pending || record.stopped) return;
  await ws.git.raw(['reset', '--quiet', '--hard', 'HEAD']);
  await ws.git.raw(['clean', '-fdq']);
}
