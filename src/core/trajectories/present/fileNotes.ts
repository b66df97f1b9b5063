// What to tell a person about a trajectory file as a whole, the same in the viewer and in
// `chainlens trajectory`: a file nothing could be read from, and a predictions file (patches
// without the steps that made them) opened where steps were expected.
import type { Trajectory, TrajectoryFile } from '../../../protocol/trajectory';

/** `nothing could be read from x (no steps, no submission)`, or undefined when something was. */
export function nothingRead(file: TrajectoryFile, shown: string): string | undefined {
  // No trajectory, or only empty shells (no step, no submission), as from `{}`.
  if (file.trajectories.every((t) => t.steps.length === 0 && t.submission === null))
    return `nothing could be read from ${shown} (no steps, no submission)`;
  return undefined;
}

/** For a predictions file: what it is and where the steps are. */
export function predictionsNote(t: Trajectory, shown: string): string | undefined {
  if (t.source.format !== 'predictions') return undefined;
  return `${shown} is a predictions file (${t.source.version}): it holds each instance's submitted patch, not the agent's steps; open the run's trajectory (.traj, .traj.json, output.jsonl) to see how the patch was made`;
}
