// The 'recorded' authors of a run: SWE-bench predictions or an agent trajectory, read and checked
// against the chain. Its own module because reading a trajectory needs the trajectory parsers
// (about a third of what `chainlens checkout` would otherwise load): run starts without
// --predictions never load it (see planRun in startRun.ts).
import type { Chain, Prediction } from '../../protocol/chain';
import { checkPredictionsMatchChain } from '../../core/formats/predictions';
import { loadRecordedAuthors } from '../../core/formats/trajectoryPredictions';
import { readUserFile } from '../../infra/files';

export interface RecordedAuthors {
  predictions: Map<string, Prediction>;
  path: string;
}

/**
 * A predictions file checked against the chain. The file may be SWE-bench predictions or an agent
 * trajectory: its final submission is the step's patch.
 */
export function readRecordedAuthors(path: string, chain: Chain): RecordedAuthors {
  const predictions = loadRecordedAuthors(path, readUserFile(path, 'predictions file'));
  checkPredictionsMatchChain(path, predictions, chain);
  return { predictions, path };
}
