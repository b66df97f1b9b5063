// A large patch pair's files analysed on several threads: this one and analysis workers
// (analysisWorker.ts), each taking the next few file pairs until none are left. Each pair is
// analysed on its own (analyzeFilePairs), so where it runs does not change its result, and the
// results are put back in the pairs' order. A worker that cannot start or stops hands its pairs
// back to this thread.
import type { Worker } from 'node:worker_threads';
import {
  analyzeFilePairs,
  type FilePair,
  type FilePairAnalyzer,
  type FileResult,
} from '../../core/analysis/analyzeStep';
import type { SymbolIndex } from '../../core/analysis/symbols';
import { UserError } from '../../core/util/errors';
import type { AnalysisReply } from './analysisWorkerProtocol';
import { startAnalysisWorker } from './analysisWorkerStart';

/** Pairs per request: small enough to share the work out evenly, large enough to post little. */
const BATCH = 4;
/** Requests a worker holds at once, so it never waits while this thread analyses its own. */
const IN_FLIGHT = 2;
/**
 * A file's syntax-tree copies and details live until the file is done: with V8's default young
 * generation most of them are copied by a scavenge or two before they die. Four times its
 * default (semi-spaces of 64 MB, --max-semi-space-size=64) took a tenth off the CPU time of the
 * 200-file analysis bench (bench/analysis.ts). A worker is the one place this can be set: the
 * main thread's heap is sized before any code runs.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 192 };

export interface FilePairPoolOptions {
  /** Worker threads besides this one. */
  readonly workers: number;
  /** Each file as it was before the patches, by repository path. */
  readonly preImages: ReadonlyMap<string, string | undefined>;
  /** This thread's symbol index. */
  readonly symbols: SymbolIndex;
  readonly workerScript?: string;
}

const pathsOf = (pair: FilePair) =>
  [pair.path, pair.step?.oldPath, pair.step?.newPath, pair.gold?.oldPath, pair.gold?.newPath].filter(
    (p): p is string => typeof p === 'string',
  );

/** Lets worker replies in between this thread's batches (awaiting the analysis alone never does). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FilePairPool implements FilePairAnalyzer {
  constructor(private readonly options: FilePairPoolOptions) {}

  async analyzeFiles(pairs: readonly FilePair[]): Promise<FileResult[]> {
    const { preImages, symbols } = this.options;
    const results: FileResult[] = new Array(pairs.length);
    const batches: number[][] = [];
    for (let i = 0; i < pairs.length; i += BATCH)
      batches.push(Array.from({ length: Math.min(BATCH, pairs.length - i) }, (_, k) => i + k));
    const handedBack: number[][] = [];
    let next = 0;
    const take = () => handedBack.pop() ?? batches[next++];
    let failure: Error | undefined;

    const here = async () => {
      for (let b = take(); b && !failure; b = take()) {
        const r = await analyzeFilePairs(
          b.map((i) => pairs[i]),
          { readFile: async (p) => preImages.get(p), symbols },
        );
        b.forEach((i, k) => (results[i] = r[k]));
        await turn();
      }
    };

    const workers: Worker[] = [];
    const inWorker = (worker: Worker) =>
      new Promise<void>((resolve) => {
        const sent = new Map<number, number[]>();
        let id = 0;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          handedBack.push(...sent.values());
          sent.clear();
          resolve();
        };
        const send = () => {
          while (sent.size < IN_FLIGHT && !failure) {
            const b = take();
            if (!b) break;
            const batch = b.map((i) => pairs[i]);
            const texts = new Map<string, string | undefined>();
            for (const p of batch.flatMap(pathsOf)) texts.set(p, preImages.get(p));
            sent.set(++id, b);
            worker.postMessage({ type: 'files', id, pairs: batch, preImages: texts });
          }
          if (sent.size === 0) finish();
        };
        worker.on('message', (m: AnalysisReply) => {
          if (m.type === 'ready') return;
          const b = sent.get(m.id);
          if (!b) return;
          sent.delete(m.id);
          if (m.type === 'files') b.forEach((i, k) => (results[i] = m.results[k]));
          else if (m.type === 'error')
            failure ??= m.userError ? new UserError(m.message, m.userError) : new Error(m.message);
          send();
        });
        worker.on('error', finish);
        worker.on('exit', finish);
        send();
      });

    try {
      const running: Promise<void>[] = [];
      for (let w = 0; w < this.options.workers; w++) {
        let started: Worker | string;
        try {
          started = startAnalysisWorker(this.options.workerScript, { resourceLimits: WORKER_LIMITS });
        } catch (e) {
          started = (e as Error).message;
        }
        if (typeof started === 'string') break;
        workers.push(started);
        running.push(inWorker(started));
      }
      await Promise.all([here(), ...running]);
      // What a worker handed back after this thread ran out of pairs.
      await here();
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
    if (failure) throw failure;
    return results;
  }
}
