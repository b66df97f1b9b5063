import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GradingProfile } from '../../protocol/grading';
import type { StepEvaluation } from '../../protocol/evaluation';
import type { RunState } from '../../protocol/run';
import { buildInstanceReport } from '../../core/evaluation/grading';
import { gradeStepLog } from '../../core/evaluation/gradeStep';
import { evaluationImage, repoPathChoice, stepSpecFor } from '../../core/evaluation/stepSpec';
import { stepVerdict } from '../../core/evaluation/verdict';
import { judgeOf } from '../../core/codethread/stepJudge';
import { UserError } from '../../core/util/errors';
import { RunInUseError } from '../../core/run/engine';
import { DEFAULT_TIMEOUT_S, evaluateState, WarmContainer, type EvaluationEngine } from '../../infra/docker';
import { openDocker } from '../../infra/docker/connect';
import { writeFileAtomic } from '../../infra/files';
import { openWorkspace, type Workspace } from '../../infra/run/workspace';
import { EvalStore } from '../../infra/evaluation/evalStore';
import { shuttingDown } from '../../infra/process/shutdown';
import type { StepContainers } from './stepContainers';

export interface StepEvaluationRequest {
  /** The work tree (any directory inside it). */
  dir: string;
  /** Step order; default: the current step (or the last one when the run is complete). */
  step?: number;
  /** 'worktree': the uncommitted work as it is now (Run tests); 'submitted': the step's end commit. */
  source: 'worktree' | 'submitted';
  /** Image override; default: the chain's docker_image. */
  image?: string;
  /** Path of the repository in the image; null: the image lacks it (copy in); undefined: detect. */
  repoPathInImage?: string | null;
  timeoutS?: number;
  profile?: GradingProfile;
  signal?: AbortSignal;
  onLog?: (chunk: string) => void;
  onProgress?: (message: string) => void;
  /** An already-open workspace (saves re-opening when evaluating several steps). */
  workspace?: Workspace;
  /** Where the container runs: the engine itself (default), or a Swarm job service (docs/scaling.md). */
  engine?: EvaluationEngine;
  /** The run's containers, prepared once (stepContainers.ts): their image is not looked up again. */
  containers?: StepContainers;
  /** A container started ahead for this step (StepContainers.startAhead); the caller discards it after. */
  warm?: WarmContainer;
  /**
   * Given: the step is graded and recorded while its container is still being removed, and this
   * receives that removal, for the caller to await before its last output (evaluateState.ts).
   */
  onContainerRemoval?: (removed: Promise<void>) => void;
}

/**
 * The one evaluation use case (`chainlens eval`, batches, studies, the editor's commands and a live
 * agent's session all call it). Evaluates one step of the run in `dir` in a fresh container,
 * graded like the SWE-bench harness:
 * the repository state under test (the step's end commit, or the uncommitted work tree) goes in
 * as a diff from base_commit, the test patches of steps 1..k are applied there only (hidden tests
 * never touch the work tree), and the log is graded with the step's F2P/P2P. The log, the
 * SWE-bench-shaped report.json and the result are kept in the run's state folder, under
 * runs/<run>/evals/ (outside the work tree: logs name the hidden tests, docs/run-state.md).
 *
 * The step's StepSpec (src/core/evaluation/stepSpec.ts) decides how it is run and graded; this
 * function conducts: run state in, the container adapter, grading, the verdict, the records. With
 * `source: 'worktree'` the state under test is the work tree's uncommitted change, so an agent
 * loop evaluates its own work this way without submitting it.
 */
export async function evaluateStep(req: StepEvaluationRequest): Promise<StepEvaluation> {
  const ws = req.workspace ?? (await openWorkspace(req.dir));
  const { state, chain } = await ws.engine.open();
  const index = stepIndex(state, req.step);
  const step = state.steps[index];
  const chainStep = chain.steps[index];
  const image = evaluationImage(chain, req.image);
  const at = new Date();
  const store = new EvalStore(ws.store.root);
  const evalDir = store.evalDir(state.runId, step.order, at);
  mkdirSync(evalDir, { recursive: true });
  const logPath = join(evalDir, 'run_instance.log');
  const reportPath = join(evalDir, 'report.json');

  if (req.source === 'submitted' && !step.end)
    throw new UserError(
      `step ${step.order} has not been submitted yet; submit it first, or evaluate the work tree`,
      'state',
    );
  if (req.source === 'worktree' && state.currentStep !== step.order)
    throw new UserError(
      `the work tree holds step ${state.currentStep ?? 'none (the run is complete)'}, not step ${step.order}; evaluate step ${step.order}'s submitted commit instead`,
      'state',
    );
  // A submitted step whose recorded patch was empty or did not apply: SWE-bench does not run it.
  const notRun = req.source === 'submitted' && (step.status === 'empty_patch' || step.status === 'patch_failed');
  // A step evaluated on its own starts its container now, while the state under test is read and
  // the image checked (docs/reference/containers.md, "Started ahead"); it is removed if not taken.
  const startsOwn = !notRun && !req.warm && (req.engine ?? 'local') === 'local' && !req.signal?.aborted;
  const own = startsOwn ? startOwn(image, state.runId) : undefined;
  try {
    let commit: string;
    let stateDiff: string;
    if (req.source === 'submitted') {
      commit = step.end!;
      stateDiff = await ws.git.diff(chain.baseCommit, commit);
    } else {
      commit = await ws.git.head();
      stateDiff = await ws.git.diffWorkTree(chain.baseCommit);
    }
    const base: Omit<
      StepEvaluation,
      'status' | 'resolved' | 'patch_applied' | 'error' | 'error_kind' | 'tests_status' | 'status_map' | 'duration_s'
    > = {
      order: step.order,
      instance_id: step.instanceId,
      log_path: logPath,
      report_path: reportPath,
      source: req.source,
      commit,
      image,
      evaluated_at: at.toISOString(),
    };
    const noTests = {
      FAIL_TO_PASS: { success: [], failure: [...chainStep.failToPass] },
      PASS_TO_PASS: { success: [], failure: [...chainStep.passToPass] },
    };

    if (notRun) {
      const empty = step.status === 'empty_patch';
      const result: StepEvaluation = {
        ...base,
        status: empty ? 'empty_patch' : 'error',
        resolved: false,
        patch_applied: false,
        error: empty ? 'The author produced no patch.' : step.note,
        error_kind: empty ? null : 'patch',
        tests_status: noTests,
        status_map: {},
        duration_s: 0,
      };
      writeFileAtomic(logPath, `${result.error}\n`);
      writeFileAtomic(
        reportPath,
        JSON.stringify(buildInstanceReport(step.instanceId, empty ? null : '', null), null, 2) + '\n',
      );
      await recordUnderLock(ws, () => store.record(state.runId, result, evalDir));
      return result;
    }

    const spec = stepSpecFor(chain, index, {
      image: req.image,
      repoPath: repoPathChoice(req.repoPathInImage),
      profile: req.profile,
    });
    const timeoutS = req.timeoutS ?? DEFAULT_TIMEOUT_S;
    req.onProgress?.(`step ${step.order}: evaluating in ${image}`);
    const run = await evaluateState(
      spec,
      { localRepo: ws.dir, stateDiff },
      {
        timeoutS,
        signal: req.signal,
        runId: state.runId,
        logPath,
        onLog: req.onLog,
        engine: req.engine,
        warm: req.warm ?? own,
        onContainerRemoval: req.onContainerRemoval,
        knownImage: req.containers?.knownImage,
        onPullProgress: (p) => req.onProgress?.(`pulling ${image}: ${JSON.stringify(p)}`),
      },
    );
    if (run.cancelled || shuttingDown()) return interrupted(base, noTests, run.durationS);
    const graded = gradeStepLog(spec, run);
    const verdict = stepVerdict({ ...run, timeoutS }, graded, judgeOf(spec.grading));
    const result: StepEvaluation = {
      ...base,
      status: verdict.status,
      resolved: verdict.resolved,
      patch_applied: run.patchApplied,
      error: verdict.error,
      error_kind: verdict.errorKind,
      tests_status: graded ? graded.grade.tests_status : noTests,
      status_map: graded?.grade.status_map ?? {},
      duration_s: Math.round(run.durationS * 100) / 100,
      ...(spec.grading === 'pr1-filter' ? { grading: 'pr1-filter' as const } : {}),
      ...(verdict.filter ? { filter: verdict.filter } : {}),
    };
    const report = buildInstanceReport(
      step.instanceId,
      stateDiff,
      run.patchApplied && graded && !graded.problem ? graded.grade : null,
    );
    const entry = report[step.instanceId];
    if (entry) entry.patch_successfully_applied = run.patchApplied;
    writeFileAtomic(reportPath, JSON.stringify(report, null, 2) + '\n');
    // A signal that came while the result was graded: the step's record is left to the next run.
    if (shuttingDown()) return interrupted(base, noTests, run.durationS);
    await recordUnderLock(ws, () => store.record(state.runId, result, evalDir));
    return result;
  } finally {
    // Removed when the evaluation did not take it (a step that ran nothing, an error before).
    await own?.discard();
  }
}

/**
 * A cancelled evaluation (Ctrl-C, Cancel in the editor, or a signal to this process) is not a
 * result: nothing is recorded (its log stays in its folder), so the step's latest evaluation stays
 * what it was and a batch or study runs it again (docs/run-state.md, "Signals").
 */
function interrupted(
  base: Omit<
    StepEvaluation,
    'status' | 'resolved' | 'patch_applied' | 'error' | 'error_kind' | 'tests_status' | 'status_map' | 'duration_s'
  >,
  noTests: StepEvaluation['tests_status'],
  durationS: number,
): StepEvaluation {
  return {
    ...base,
    status: 'error',
    resolved: false,
    patch_applied: false,
    error: 'Evaluation cancelled.',
    error_kind: 'cancelled',
    tests_status: noTests,
    status_map: {},
    duration_s: Math.round(durationS * 100) / 100,
  };
}

/**
 * The run's evaluation index is read, changed and written: two evaluations finishing at once (the
 * CLI and the VS Code window, say) must not lose one another's entry. Recording a finished result
 * waits a little for the run's lock rather than being refused like a command: the evaluation has
 * already happened.
 */
async function recordUnderLock(ws: Workspace, record: () => void): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await ws.store.hold('record an evaluation', async () => record());
      return;
    } catch (e) {
      if (!(e instanceof RunInUseError) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A container for this step, started on the engine's client before its ping is answered (a
 * failure is no one's: the evaluation then starts its own and reports the engine's trouble).
 */
function startOwn(image: string, runId: string): WarmContainer | undefined {
  try {
    const name = `chainlens-${runId.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, 60)}-${Math.random().toString(36).slice(2, 8)}`;
    return WarmContainer.start(openDocker().client, { image, runId, name });
  } catch {
    return undefined; // no engine address could be worked out: evaluateState says so
  }
}

function stepIndex(state: RunState, order: number | undefined): number {
  const wanted = order ?? state.currentStep ?? state.steps[state.steps.length - 1].order;
  const index = state.steps.findIndex((s) => s.order === wanted);
  if (index < 0)
    throw new UserError(
      `the chain has no step ${wanted} (steps ${state.steps[0].order}-${state.steps[state.steps.length - 1].order})`,
      'usage',
    );
  return index;
}
