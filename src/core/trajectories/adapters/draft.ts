import type {
  ModelStats,
  PatchSoFar,
  SourcePosition,
  ToolCall,
  Trajectory,
  TrajectoryProblem,
  TrajectorySource,
  TrajectoryStep,
} from '../../../protocol/trajectory';
import { interpretSteps } from '../interpret/interpretSteps';
import type { StepEffects, WorkspaceOp } from '../interpret/stepEffects';
import { patchesSoFar, workspaceTimeline, type ReplayOptions, type WorkspaceTimeline } from '../workspace/replay';

/** A step as an adapter reads it, before its effects are derived. */
export interface StepDraft {
  thought: string;
  action: string;
  tool?: ToolCall;
  observation: string;
  exitCode: number | null;
  executionTimeSec: number | null;
  timestamp?: string;
  origin: SourcePosition;
  /** A diff the source recorded for the repository after this step (SWE-agent state.diff). */
  recordedPatch?: string;
}

export interface TrajectoryDraft {
  source: TrajectorySource;
  workspaceRoot: string | null;
  instanceId: string | null;
  model: string | null;
  exitStatus: string | null;
  submission: string | null;
  modelStats: ModelStats | null;
  problemStatement: string | null;
  image: string | null;
  attempt: Trajectory['attempt'];
  steps: StepDraft[];
  problems: TrajectoryProblem[];
}

/**
 * Derives every step's kind, files and patch so far, the part all adapters share. The derivations
 * are made on first use, for the whole trajectory at once (each step's depends on the steps
 * before it): a listing of a 100 MB output.jsonl's instances reads none of them, a step table
 * only the kinds and files, and most of the time and memory of a load was the patch after every
 * step. The step objects still look plain: the derived fields are enumerable, in the order the
 * protocol lists them, so JSON.stringify, postMessage and deep equality see the same object.
 */
export function finishTrajectory(draft: TrajectoryDraft): Trajectory {
  const { steps, ...rest } = draft;
  let effects: StepEffects[] | undefined;
  let patches: (PatchSoFar | undefined)[] | undefined;
  const effectsOf = () => (effects ??= interpretSteps(steps, draft.source.format, draft.workspaceRoot));
  const patchesOf = () => (patches ??= stepPatches(draft, effectsOf()));
  return { ...rest, steps: steps.map((s, k) => lazyStep(s, k, effectsOf, patchesOf)) };
}

/** A normalised step whose derived fields are computed on first read (and can be overwritten). */
function lazyStep(
  s: StepDraft,
  k: number,
  effectsOf: () => StepEffects[],
  patchesOf: () => (PatchSoFar | undefined)[],
): TrajectoryStep {
  const own = <K extends keyof TrajectoryStep>(step: TrajectoryStep, key: K, value: TrajectoryStep[K]) =>
    Object.defineProperty(step, key, { value, writable: true, enumerable: true, configurable: true });
  const step: TrajectoryStep = {
    index: k,
    thought: s.thought,
    action: s.action,
    get actionKind() {
      return effectsOf()[k].kind;
    },
    set actionKind(v) {
      own(step, 'actionKind', v);
    },
    get actionKindReason() {
      return effectsOf()[k].reason;
    },
    set actionKindReason(v) {
      own(step, 'actionKindReason', v);
    },
    ...(s.tool ? { tool: s.tool } : {}),
    observation: s.observation,
    exitCode: s.exitCode,
    get filesTouched() {
      return effectsOf()[k].touches;
    },
    set filesTouched(v) {
      own(step, 'filesTouched', v);
    },
    executionTimeSec: s.executionTimeSec,
    ...(s.timestamp ? { timestamp: s.timestamp } : {}),
    get patchSoFar() {
      return patchesOf()[k] ?? null;
    },
    set patchSoFar(v) {
      own(step, 'patchSoFar', v);
    },
    origin: s.origin,
  };
  return step;
}

/** The patch after each step, recorded where the source kept one, otherwise replayed. */
function stepPatches(draft: TrajectoryDraft, effects: StepEffects[]): (PatchSoFar | undefined)[] {
  const ops: WorkspaceOp[][] = effects.map((e, k) => {
    const recorded = draft.steps[k].recordedPatch;
    return recorded !== undefined ? [...e.ops, { type: 'recordedPatch', text: recorded }] : e.ops;
  });
  // a run that ends by submitting: its final patch is the repository state after that step
  const last = effects.length - 1;
  if (
    last >= 0 &&
    effects[last].kind === 'submit' &&
    draft.submission !== null &&
    !ops[last].some((o) => o.type === 'recordedPatch')
  ) {
    ops[last] = [...ops[last], { type: 'recordedPatch', text: draft.submission }];
  }
  return patchesSoFar(ops, { submission: draft.submission });
}

/**
 * "Workspace at step k" for a parsed trajectory: each touched file's content as of any step, and
 * the patch so far, optionally with the original files (`readBaseFile`) so lines the agent never
 * looked at are known too. Without them, what was never shown stays unknown and is reported so.
 */
export function reconstructWorkspace(
  trajectory: Trajectory,
  options: Pick<ReplayOptions, 'readBaseFile'> = {},
): WorkspaceTimeline {
  const effects = interpretSteps(trajectory.steps, trajectory.source.format, trajectory.workspaceRoot);
  const ops: WorkspaceOp[][] = effects.map((e, k) => {
    const p = trajectory.steps[k].patchSoFar;
    return p && p.origin === 'recorded' ? [...e.ops, { type: 'recordedPatch', text: p.text }] : e.ops;
  });
  return workspaceTimeline(ops, { readBaseFile: options.readBaseFile, submission: trajectory.submission });
}

/** An instance id from a file name such as `sweagent_v0_gpt4__pydicom__pydicom-1458.traj`. */
export function instanceIdFromFileName(file: string): string | null {
  const base = file.replace(/\\/g, '/').split('/').pop() ?? '';
  const stem = base.replace(/(\.traj\.json|\.traj|\.json|\.jsonl)$/, '');
  const parts = stem.split('__');
  if (parts.length < 2 || !/-\d+$/.test(parts[parts.length - 1])) return null;
  return parts.slice(-2).join('__');
}
