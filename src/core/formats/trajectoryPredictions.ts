import type { Prediction } from '../../protocol/chain';
import { detectTrajectoryFormat, instanceIdFromFileName, parseTrajectory } from '../trajectories';
import { UserError } from '../util/errors';
import { loadPredictions } from './predictions';

/** Whether a predictions argument is an agent trajectory (SWE-agent, mini-swe-agent, OpenHands). */
export function isTrajectoryFile(fileName: string, text: string): boolean {
  const detection = detectTrajectoryFormat(fileName, text.slice(0, 65536));
  return detection !== null && detection.format !== 'predictions';
}

/**
 * A trajectory as a recorded author: each trajectory's final submission becomes the prediction
 * for its instance, so a recorded agent run replays through the chain (and its annotations).
 * The instance comes from the file (OpenHands, mini-swe-agent) or, for SWE-agent's .traj, from
 * the file name (`<instance_id>.traj`), as SWE-agent names them.
 */
export function predictionsFromTrajectory(fileName: string, text: string): Map<string, Prediction> {
  const file = parseTrajectory(fileName, text);
  if (file.trajectories.length === 0) {
    const why = file.problems
      .map((p) => p.message)
      .slice(0, 3)
      .join('; ');
    throw new UserError(`${fileName} holds no readable trajectory${why ? `: ${why}` : ''}`, 'input');
  }
  const out = new Map<string, Prediction>();
  for (const t of file.trajectories) {
    const instanceId = t.instanceId ?? instanceIdFromFileName(fileName);
    if (!instanceId)
      throw new UserError(
        `${fileName} does not say which instance it solved; name the file <instance_id>.traj`,
        'input',
      );
    out.set(instanceId, { instanceId, model: t.model ?? 'unknown', patch: t.submission });
  }
  return out;
}

/** A recorded-author file of either kind: SWE-bench predictions, or an agent trajectory. */
export function loadRecordedAuthors(fileName: string, text: string): Map<string, Prediction> {
  return isTrajectoryFile(fileName, text) ? predictionsFromTrajectory(fileName, text) : loadPredictions(fileName, text);
}
