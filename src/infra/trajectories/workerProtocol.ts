import type { TrajectoryDetection } from '../../core/trajectories';
import type { Trajectory, TrajectoryProblem, TrajectoryStep } from '../../protocol/trajectory';

/** What the parse worker is asked to do. */
export interface WorkerRequest {
  path: string;
  previewSteps?: number;
  keepPartialTail?: boolean;
}

/**
 * What the parse worker reports. A finished trajectory travels as a header and then its steps in
 * slices, so the receiving thread (VS Code's extension host) deserialises it in small bites
 * instead of one long pause.
 */
export type WorkerMessage =
  | { type: 'progress'; bytesRead: number; totalBytes: number }
  | { type: 'detected'; detection: TrajectoryDetection }
  | { type: 'preview'; trajectory: Trajectory }
  | { type: 'trajectory'; header: Omit<Trajectory, 'steps'>; stepCount: number }
  | { type: 'steps'; steps: TrajectoryStep[] }
  | { type: 'problem'; problem: TrajectoryProblem }
  | { type: 'done'; detection: TrajectoryDetection | null; totalBytes: number; completeBytes: number; lines: number }
  | { type: 'error'; message: string; code?: string };

export const STEPS_PER_MESSAGE = 250;
