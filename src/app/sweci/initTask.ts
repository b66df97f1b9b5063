import { copyFileSync, mkdtempSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_ITERATION_LIMIT, testGap } from '../../core/sweci';
import { DEFAULT_SWECI_POLICIES } from '../../core/sweci/policies';
import { UserError } from '../../core/util/errors';
import type { RunState } from '../../protocol/run';
import type { SweciPolicies, SweciRecord, SweciTask, SweciTestRun } from '../../protocol/sweci';
import { Git } from '../../infra/git/git';
import { extractCodeArchive } from '../../infra/sweci/codeArchive';
import { taskFiles } from '../../infra/sweci/dataset';
import { loadImageArchive } from '../../infra/sweci/imageArchive';
import { SweciStore } from '../../infra/sweci/sweciStore';
import { buildTaskCommits } from '../../infra/sweci/taskCommits';
import { runTaskTests, SWECI_TEST_CMD } from '../../infra/sweci/testRun';
import { startRun } from '../run/startRun';
import { taskChain } from './taskChain';

export interface InitTaskRequest {
  datasetDir: string;
  split: string;
  taskId: string;
  /** The work tree to make (or reuse, like `checkout`). */
  dir: string;
  limit?: number;
  /** Per test run; SWE-CI's pytest limit is 3600 s. */
  timeoutS?: number;
  /** Use this image instead of loading the task's archive (an image already loaded). */
  image?: string;
  /** Where ChainLens chooses (docs/sweci.md); each absent one is the harness's default. */
  policies?: Partial<SweciPolicies>;
  log?: (line: string) => void;
}

export interface InitTaskResult {
  record: SweciRecord;
  state: RunState;
  dir: string;
  stateDir: string;
  notes: string[];
}

/** A task measured and ready to start runs from: its repository, its two test runs, its gap. */
export interface PreparedTask {
  /** The task without policies (each run sets its own). */
  task: Omit<SweciTask, 'policies'>;
  gap: string[];
  notes: string[];
  /** The unpacked repository holding the base and oracle commits (runs are checked out of it). */
  repoDir: string;
  metadataFile: string;
}

/**
 * SWE-CI's initialisation of a task, up to the runs (docs/sweci.md): loads the environment image,
 * unpacks the repository into `scratch`, builds the base (current code + the target's tests) and
 * the oracle state, runs the tests on both (logs in `scratch`), and takes p0, p* and the gap. A
 * task that fails a check is an error naming it; nothing outside `scratch` is written.
 */
export async function prepareTask(
  req: Omit<InitTaskRequest, 'dir' | 'policies'>,
  scratch: string,
): Promise<PreparedTask> {
  const log = req.log ?? (() => {});
  const limit = req.limit ?? DEFAULT_ITERATION_LIMIT;
  const timeoutS = req.timeoutS ?? 3600;
  const files = taskFiles(req.datasetDir, req.split, req.taskId);
  const { row } = files.row;
  const image = req.image ?? (await loadImageArchive(req.taskId, files.imageArchive));
  log(`task ${req.taskId}: image ${image}`);
  const repoDir = await extractCodeArchive(req.taskId, files.codeZip, join(scratch, 'code'));
  const commits = await buildTaskCommits(new Git(repoDir), req.taskId, row.current_sha, row.target_sha);
  const runLabel = `sweci-init-${req.taskId}`;
  const testsOf = async (what: 'base' | 'oracle', commit: string): Promise<SweciTestRun> => {
    log(`task ${req.taskId}: running the tests at the ${what}`);
    return runTaskTests({
      image,
      repo: repoDir,
      commit,
      testCmd: SWECI_TEST_CMD,
      timeoutS,
      logDir: join(scratch, 'logs', what),
      runId: runLabel,
    });
  };
  const initial = await testsOf('base', commits.base);
  if (!initial.usable)
    throw new UserError(
      `task '${req.taskId}': the target's tests do not run on the current code (${initial.problem}); see ${initial.logPath}`,
      'input',
    );
  const oracle = await testsOf('oracle', commits.oracle);
  if (!oracle.usable || oracle.passed.length === 0)
    throw new UserError(
      `task '${req.taskId}': the oracle's tests do not pass at the oracle (${oracle.problem ?? 'no test passed'}); the task cannot be scored`,
      'input',
    );
  const gap = testGap(oracle.passed, new Set(initial.passed));
  const notes: string[] = [];
  if (gap.length !== Number(row.test_gap))
    notes.push(
      `task ${req.taskId}: the metadata says the test gap is ${row.test_gap}; measured here it is ${gap.length}`,
    );
  if (gap.length === 0) notes.push(`task ${req.taskId}: the base already passes every oracle test; nothing to do`);
  return {
    task: {
      taskId: req.taskId,
      split: req.split,
      datasetDir: resolve(req.datasetDir),
      currentSha: commits.currentSha,
      targetSha: commits.targetSha,
      expectedGap: Number(row.test_gap),
      image,
      testCmd: SWECI_TEST_CMD,
      baseCommit: commits.base,
      initial,
      oracle,
      limit,
      timeoutS,
    },
    gap,
    notes,
    repoDir,
    metadataFile: files.metadataFile,
  };
}

/**
 * Checks a prepared task's base out into `dir` and starts its run (Seq, one step per iteration),
 * the task recorded in the run's state folder with copies of the two init logs. `move`: the logs
 * are moved rather than copied (a one-off `init` needs them no more).
 */
export async function startTask(
  prepared: PreparedTask,
  dir: string,
  policies: Partial<SweciPolicies> | undefined,
  log: (line: string) => void,
  move = false,
): Promise<InitTaskResult> {
  const task: SweciTask = { ...prepared.task, policies: { ...DEFAULT_SWECI_POLICIES, ...policies } };
  const chain = taskChain(task, prepared.gap);
  const {
    workspace,
    state,
    notes: runNotes,
  } = await startRun(
    {
      chain,
      chainPath: prepared.metadataFile,
      source: { kind: 'path', path: prepared.repoDir },
      dir: resolve(dir),
      mode: 'seq',
      authors: chain.steps.map(() => ({ kind: 'human' })),
      recorded: {},
      operation: 'sweci init',
    },
    log,
  );
  const store = new SweciStore(workspace.store.root);
  // The two init logs go into the run's state folder.
  const placed = (run: SweciTestRun, what: string): SweciTestRun => {
    const to = join(store.folder(state.runId, 'init', what), 'test_output.log');
    mkdirSync(dirname(to), { recursive: true });
    if (move) renameSync(run.logPath, to);
    else copyFileSync(run.logPath, to);
    return { ...run, logPath: to };
  };
  const record: SweciRecord = {
    schema: 1,
    runId: state.runId,
    task: { ...task, initial: placed(task.initial, 'base'), oracle: placed(task.oracle, 'oracle') },
    iterations: [],
    stopped: prepared.gap.length === 0 ? 'gap-closed' : null,
  };
  await workspace.store.hold('sweci init', async () => store.write(record));
  return { record, state, dir: workspace.dir, stateDir: workspace.store.root, notes: [...prepared.notes, ...runNotes] };
}

/**
 * Initialises a SWE-CI task as SWE-CI does (docs/sweci.md): prepareTask in a scratch folder, and
 * only when all of that worked is the work tree checked out and the run started (startTask): a
 * task that fails any check leaves nothing behind.
 */
export async function initTask(req: InitTaskRequest): Promise<InitTaskResult> {
  const scratch = mkdtempSync(join(tmpdir(), `chainlens-sweci-${req.taskId}-`));
  try {
    const prepared = await prepareTask(req, scratch);
    return await startTask(prepared, req.dir, req.policies, req.log ?? (() => {}), true);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
