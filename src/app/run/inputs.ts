// The files a run starts from: the chain file (ChainSWE or SWE-bench instances) and, for
// 'recorded' authors, SWE-bench predictions or an agent trajectory. Read and checked here, once,
// for the CLI and the editor alike.
import { resolve } from 'node:path';
import type { Chain, Prediction } from '../../protocol/chain';
import { loadChain } from '../../core/formats/loadChain';
import { readUserFile } from '../../infra/files';
import type { RecordedAuthors } from './recordedAuthors';

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
 * The reader (and the trajectory parsers it needs) loads only here, when a file is given.
 */
export async function readPredictionsOption(cwd: string, value: string, chain: Chain): Promise<RecordedAuthors | null> {
  if (value === 'gold') return null;
  const { readRecordedAuthors } = await import('./recordedAuthors');
  return readRecordedAuthors(resolve(cwd, value), chain);
}

/** What the run keeps of the predictions: the patch per instance id (null: the agent made none). */
export function recordedPatches(
  predictions: Map<string, Prediction> | null | undefined,
): Record<string, string | null> {
  return Object.fromEntries(
    [...(predictions ?? new Map<string, Prediction>()).values()].map((p) => [p.instanceId, p.patch]),
  );
}
