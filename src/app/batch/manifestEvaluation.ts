import type { BatchManifest } from '../../protocol/batch';
import type { StepEvaluationRequest } from '../evaluation/evaluateStep';

/**
 * The evaluation settings a batch's manifest fixes for every step it grades (image, repository
 * placement, timeout, profile): one reading, so a batch step and a chain-error evidence trial are
 * graded alike.
 */
export function manifestEvaluation(
  manifest: BatchManifest,
): Pick<StepEvaluationRequest, 'image' | 'repoPathInImage' | 'timeoutS' | 'profile'> {
  const o = manifest.options;
  return {
    image: o.image ?? undefined,
    repoPathInImage: o.repo_path_in_image === 'none' ? null : (o.repo_path_in_image ?? undefined),
    timeoutS: o.timeout_s ?? undefined,
    profile: o.profile,
  };
}
