import type {
  ModelStats,
  PatchSoFar,
  SourcePosition,
  ToolCall,
  Trajectory,
  TrajectoryProblem,
  TrajectorySource,
} from '../../../protocol/trajectory';
import { interpretSteps } from '../interpret/interpretSteps';
import type { StepEffects, WorkspaceOp } from '../interpret/stepEffects';
import { lazyStep, StepDerivations } from './lazyStep';
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

/** Derives every step's kind, files and patch so far (on first use: see lazyStep.ts). */
export function finishTrajectory(draft: TrajectoryDraft): Trajectory {
  const { steps, ...rest } = draft;
  const derivations = new StepDerivations(
    () => interpretSteps(steps, draft.source.format, draft.workspaceRoot),
    (effects) => stepPatches(draft, effects),
  );
  return { ...rest, steps: steps.map((s, k) => lazyStep(s, k, derivations)) };
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

/**
 * An instance id from a file name such as `sweagent_v0_gpt4__pydicom__pydicom-1458.traj`
 * (SWE-bench's `owner__repo-<PR number>`) or `swe-agent__test-repo-i1.traj` (SWE-agent's id of a
 * GitHub issue, `owner__repo-i<issue number>`, `GithubIssue` in sweagent/agent/problem_statement.py).
 */
export function instanceIdFromFileName(file: string): string | null {
  const base = file.replace(/\\/g, '/').split('/').pop() ?? '';
  const stem = base.replace(/(\.traj\.json|\.traj|\.json|\.jsonl)$/, '');
  const parts = stem.split('__');
  if (parts.length < 2 || !/-i?\d+$/.test(parts[parts.length - 1])) return null;
  return parts.slice(-2).join('__');
}
