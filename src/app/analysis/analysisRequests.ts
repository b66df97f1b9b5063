// How an analysis request is answered: the same function in the analysis worker and, when no
// worker can start, on the caller's thread, so both give the same result.
import { analyzeFilePairs } from '../../core/analysis/analyzeStep';
import type { SymbolIndex } from '../../core/analysis/symbols';
import type { CancellationTokenLike } from '../../core/util/cancellation';
import { isUserError } from '../../core/util/errors';
import { analyzeStepFiles } from './analyzeStepFiles';
import type { AnalysisReply, AnalysisRequest } from './analysisWorkerProtocol';

/** A token over the caller's shared flag: read at each check, no message needed. */
function sharedToken(buffer: SharedArrayBuffer): CancellationTokenLike {
  const flag = new Int32Array(buffer);
  return {
    get isCancellationRequested() {
      return Atomics.load(flag, 0) !== 0;
    },
    onCancellationRequested: () => ({ dispose() {} }),
  };
}

export async function answer(request: AnalysisRequest, symbols: SymbolIndex): Promise<AnalysisReply> {
  try {
    if (request.type === 'analyze')
      return {
        type: 'analyzed',
        id: request.id,
        result: await analyzeStepFiles(request.job, symbols, sharedToken(request.cancel)),
      };
    if (request.type === 'files') {
      const { pairs, preImages } = request;
      const results = await analyzeFilePairs(pairs, { readFile: async (p) => preImages.get(p), symbols });
      return { type: 'files', id: request.id, results };
    }
    const outline = await symbols.open(request.path, request.text);
    try {
      return { type: 'symbols', id: request.id, symbols: outline ? [...outline.symbols] : null };
    } finally {
      outline?.dispose();
    }
  } catch (e) {
    return {
      type: 'error',
      id: request.id,
      message: e instanceof Error ? e.message : String(e),
      ...(isUserError(e) ? { userError: e.kind } : {}),
    };
  }
}
