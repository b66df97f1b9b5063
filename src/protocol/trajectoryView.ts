import * as z from 'zod';
import { ActionKindSchema, FileAccessSchema, LineRangeSchema } from './trajectory';

/**
 * Messages between the extension and the trajectory webview (webview-ui/src/trajectory). The webview
 * says `ready` once its script runs (and again after it is revived); only then does the extension
 * send. The list gets one small row per step; a step's full thought/action/observation is sent
 * only when it is selected, so a trajectory of thousands of steps stays light in the webview.
 */

export const StepRowSchema = z.object({
  index: z.number().int().nonnegative(),
  kind: ActionKindSchema,
  /** One line for the list ("edit numpy_handler.py 287-296"). */
  summary: z.string(),
  exitCode: z.number().int().nullable(),
  /** Workspace-relative (or agent-side when unmapped) paths the step touched. */
  files: z.array(z.string()),
});
export type StepRow = z.infer<typeof StepRowSchema>;

export const StepFileViewSchema = z.object({
  /** Path as the trajectory names it (repository-relative or the agent's absolute path). */
  path: z.string(),
  /** Workspace-relative path when the file exists in the open workspace (it can be opened). */
  workspacePath: z.string().nullable(),
  access: FileAccessSchema,
  ranges: z.array(LineRangeSchema),
});

export const StepDetailSchema = z.object({
  index: z.number().int().nonnegative(),
  kind: ActionKindSchema,
  kindReason: z.string(),
  thought: z.string(),
  action: z.string(),
  observation: z.string(),
  exitCode: z.number().int().nullable(),
  executionTimeSec: z.number().nullable(),
  timestamp: z.string().optional(),
  files: z.array(StepFileViewSchema),
  /** "recorded" / "reconstructed (incomplete: …)" when a patch so far is known. */
  patchNote: z.string().nullable(),
  origin: z.string(),
});
export type StepDetail = z.infer<typeof StepDetailSchema>;

export const TrajectoryHeaderSchema = z.object({
  file: z.string(),
  title: z.string(),
  format: z.string(),
  instanceId: z.string().nullable(),
  model: z.string().nullable(),
  exitStatus: z.string().nullable(),
  workspaceRoot: z.string().nullable(),
  /** Trajectories in the file (output.jsonl holds one per instance) and which one is shown. */
  choices: z.array(z.string()),
  chosen: z.number().int().nonnegative(),
  hasSubmission: z.boolean(),
  /** The active run's chain step for this instance, when there is one. */
  chainStep: z
    .object({
      order: z.number().int(),
      hasGold: z.boolean(),
      hasTestPatch: z.boolean(),
      evaluation: z.string().nullable(),
    })
    .nullable(),
});
export type TrajectoryHeader = z.infer<typeof TrajectoryHeaderSchema>;

export const ProblemViewSchema = z.object({ severity: z.enum(['error', 'warning']), text: z.string() });
export type ProblemView = z.infer<typeof ProblemViewSchema>;

export type ToTrajectoryView =
  | { type: 'loading'; file: string; bytesRead: number; totalBytes: number }
  | {
      type: 'trajectory';
      header: TrajectoryHeader;
      rows: StepRow[];
      problems: ProblemView[];
      reason: 'initial' | 'appended' | 'reloaded';
    }
  | { type: 'detail'; step: StepDetail }
  | { type: 'searchResult'; query: string; matches: number[] }
  | { type: 'failed'; message: string };

export const TrajectoryViewActionSchema = z.enum([
  'openFile',
  'workspaceAtStep',
  'diffWithPrevious',
  'submissionVsGold',
  'testPatch',
  'submission',
]);
export type TrajectoryViewAction = z.infer<typeof TrajectoryViewActionSchema>;

export const FromTrajectoryViewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** `follow`: also open the touched file in the editor (a person moved the selection). */
  z.object({ type: z.literal('select'), index: z.number().int().nonnegative(), follow: z.boolean() }),
  z.object({ type: z.literal('search'), query: z.string().max(500) }),
  z.object({ type: z.literal('choose'), trajectory: z.number().int().nonnegative() }),
  z.object({
    type: z.literal('action'),
    action: TrajectoryViewActionSchema,
    index: z.number().int().nonnegative(),
    path: z.string().optional(),
  }),
]);
export type FromTrajectoryView = z.infer<typeof FromTrajectoryViewSchema>;

/** What the webview keeps with vscode.setState; the extension's serializer reopens `file`. */
export interface TrajectoryViewState {
  file?: string;
  trajectory?: number;
  selected?: number;
  filter?: string[];
  query?: string;
}

/** One side of "Compare Trajectories": its rows (the message's `aligned` says which rows face which). */
export interface CompareSide {
  file: string;
  title: string;
  model: string | null;
  exitStatus: string | null;
  rows: StepRow[];
  /** Every file the trajectory touched (workspace-relative where it maps). */
  files: string[];
  problems: string[];
}

export type ToCompareView =
  | {
      type: 'compare';
      left: CompareSide;
      right: CompareSide;
      /**
       * The table's rows, top to bottom: a left and a right row index facing each other (the same
       * action, src/core/trajectories/align.ts), or one of them against a gap (null).
       */
      aligned: (readonly [number | null, number | null])[];
    }
  | { type: 'failed'; message: string };

export const FromCompareViewSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('ready') })]);
export type FromCompareView = z.infer<typeof FromCompareViewSchema>;

export interface CompareViewState {
  left?: string;
  right?: string;
}
