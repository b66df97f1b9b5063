import { resolve } from 'node:path';
import type { Chain, Prediction } from '../protocol/chain';
import { loadChain } from '../core/formats/loadChain';
import { checkPredictionsMatchChain } from '../core/formats/predictions';
import { loadRecordedAuthors } from '../core/formats/trajectoryPredictions';
import { readUserFile } from '../infra/files';

export interface ChainSelection {
  chainId?: string;
  /** Comma-separated SWE-bench instance ids (chain order). */
  instances?: string;
}

export function readChainFile(
  cwd: string,
  file: string,
  selection: ChainSelection = {},
): { chain: Chain; path: string } {
  const path = resolve(cwd, file);
  const text = readUserFile(path, 'chain file');
  const instanceIds = selection.instances
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { chain: loadChain(path, text, { chainId: selection.chainId, instanceIds }), path };
}

/**
 * `--predictions <file>` -> predictions checked against the chain; `gold` -> null (gold authors).
 * The file may be SWE-bench predictions or an agent trajectory (its submission is the patch).
 */
export function readPredictionsOption(
  cwd: string,
  value: string,
  chain: Chain,
): { predictions: Map<string, Prediction>; path: string } | null {
  if (value === 'gold') return null;
  const path = resolve(cwd, value);
  const text = readUserFile(path, 'predictions file');
  // An agent trajectory is a recorded author too: its final submission is the step's patch.
  const predictions = loadRecordedAuthors(path, text);
  checkPredictionsMatchChain(path, predictions, chain);
  return { predictions, path };
}

export function recordedPatches(
  predictions: Map<string, Prediction> | null | undefined,
): Record<string, string | null> {
  return Object.fromEntries(
    [...(predictions ?? new Map<string, Prediction>()).values()].map((p) => [p.instanceId, p.patch]),
  );
}
